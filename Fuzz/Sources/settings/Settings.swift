// libFuzzer shim for the `settings` target. The harness body is FuzzTargets.settings in _StructuredFuzzTargets, which
// `swift test` and `stc fuzz replay` also run on every corpus file.

import LibFuzzerDriver
import _StructuredFuzzTargets

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzTargets.settings.libFuzzerEntry(data, size)
}

#if LIBFUZZER_DRIVER_MAIN
    /// The program's main when the fuzz build links libFuzzer itself (Fuzz/Package.swift).
    @main enum LibFuzzerMain {
        static func main() { runLibFuzzer(CommandLine.argc, CommandLine.unsafeArgv, fuzzOneInput) }
    }
#endif
