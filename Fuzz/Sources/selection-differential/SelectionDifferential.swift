// libFuzzer shim for the `selection-differential` target. The harness body is FuzzTargets.selectionDifferential
// in DifferentialFuzzTargets, which `swift test` and `stc fuzz replay` also run on every corpus file.
import DifferentialFuzzTargets

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzTargets.selectionDifferential.libFuzzerEntry(data, size)
}
