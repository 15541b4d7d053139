// libFuzzer shim for the `shield` target. The harness body is FuzzTargets.shield in StructuredFuzzTargets, which
// `swift test` and `stc fuzz replay` also run on every corpus file.
import StructuredFuzzTargets

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzTargets.shield.libFuzzerEntry(data, size)
}
