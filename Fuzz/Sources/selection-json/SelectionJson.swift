// libFuzzer shim for the `selection-json` target. The harness body is FuzzTargets.selectionJSON in SelectionFuzzTargets, which
// `swift test` and `stc fuzz replay` also run on every corpus file.
import SelectionFuzzTargets

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzTargets.selectionJSON.libFuzzerEntry(data, size)
}
