// libFuzzer shim for the `json` target. The harness body is FuzzTargets.json in _JSONFuzzTargets, which
// `swift test` and `stc fuzz replay` also run on every corpus file.

import LibFuzzerDriver
import _JSONFuzzTargets

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzTargets.json.libFuzzerEntry(data, size)
}

#if LIBFUZZER_DRIVER_MAIN
    /// The program's main when the fuzz build links libFuzzer itself (Fuzz/Package.swift).
    @main enum LibFuzzerMain {
        static func main() { runLibFuzzer(CommandLine.argc, CommandLine.unsafeArgv, fuzzOneInput) }
    }
#endif
