// libFuzzer shim for the `url` target. The harness body is FuzzTargets.url in EncodingFuzzTargets, which
// `swift test` and `stc fuzz replay` also run on every corpus file.
import EncodingFuzzTargets

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzTargets.url.libFuzzerEntry(data, size)
}
