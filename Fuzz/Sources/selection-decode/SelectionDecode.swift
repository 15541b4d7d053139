// libFuzzer shim for the `selection-decode` target. The harness body is FuzzTargets.selectionDecode in SelectionFuzzTargets, which
// `swift test` and `stc fuzz replay` also run on every corpus file.
import SelectionFuzzTargets

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzTargets.selectionDecode.libFuzzerEntry(data, size)
}
