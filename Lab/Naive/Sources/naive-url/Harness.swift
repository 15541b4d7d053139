// Naive baseline: an app name into the plain encoder call and a query component into the plain decoder call. A
// crash is the only oracle.
import Foundation
import ScreenTimeReference

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    _ = PercentEncoding.encodeComponent(text)
    _ = try? PercentEncoding.decodeComponent(text)
    return 0
}
