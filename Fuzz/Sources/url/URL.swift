// libFuzzer shim for the `url` target. The harness body is FuzzTargets.url in FuzzHarnesses, which
// `swift test` and `stc fuzz replay` also run on every corpus file.
import FuzzHarnesses

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzTargets.url.libFuzzerEntry(data, size)
}
