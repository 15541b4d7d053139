// libFuzzer's entry point for programs with a main of their own (compiler-rt's FuzzerInterface.h).
//
// `stc fuzz run` builds the Fuzz package with `--sanitize=address` and links libFuzzer through Fuzz/Package.swift
// (so that coverage instrumentation goes to the code under test alone, Fuzz/README.md). The shim's `@main`, compiled
// in that build only, is then the program's main and hands over to libFuzzer here. Built with SwiftPM's
// `--sanitize=fuzzer` instead, libFuzzer's own main runs.
#ifndef LIBFUZZER_DRIVER_H
#define LIBFUZZER_DRIVER_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

/// Runs libFuzzer's driver over `callback` with the program's arguments, and exits with its status.
__attribute__((noreturn)) static inline void runLibFuzzer(int argc, char **argv, int (*callback)(const uint8_t *data, size_t size)) {
    exit(LLVMFuzzerRunDriver(&argc, &argv, callback));
}

#endif
