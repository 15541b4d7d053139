// libFuzzer shim for the `template` target: the body lives in ReferenceProperties (FuzzTargets.template),
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
    if let failure = FuzzTargets.template.body(bytes) {
        let message = Array("invariant failed in template: \(failure)\n".utf8)
        _ = message.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
        abort()
    }
    return 0
}
