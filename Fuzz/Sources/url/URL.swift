// libFuzzer shim for the `url` target: the body lives in ReferenceProperties (FuzzTargets.url),
// so `swift test` and `stc fuzz replay` run the corpus through the very same code.
import ReferenceProperties

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    if let failure = FuzzTargets.url.body(bytes) {
        let message = Array("invariant failed in url: \(failure)\n".utf8)
        _ = message.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
        abort()
    }
    return 0
}
