// libFuzzer shim for the `template` target. The harness body is FuzzTargets.template in EncodingFuzzTargets, which
// `swift test` and `stc fuzz replay` also run on every corpus file.
import EncodingFuzzTargets

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzTargets.template.libFuzzerEntry(data, size)
}
