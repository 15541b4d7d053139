// Naive baseline: the bytes as a shield-text template, rendered with the values a shield has. A crash is the only
// oracle.
import Foundation
import ScreenTimeReference

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    _ = ShieldTextTemplate(text).render(["applicationName": "Maps", "categoryName": nil])
    return 0
}
