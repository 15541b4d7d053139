// Naive baseline: the bytes cut into tokens (at zero bytes), put in one store's sets, and one verdict asked for.
// A crash is the only oracle.
import Foundation
import ScreenTimeReference

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let parts = UnsafeBufferPointer(start: data, count: size).split(separator: 0, omittingEmptySubsequences: false)
    let apps = parts.enumerated().filter { $0.offset % 2 == 0 }.map { ApplicationToken(bytes: Array($0.element)) }
    let categories = parts.enumerated().filter { $0.offset % 2 == 1 }.map {
        ActivityCategoryToken(bytes: Array($0.element))
    }
    guard let app = apps.first else { return 0 }
    let category = categories.first ?? ActivityCategoryToken(bytes: [])
    let settings = ShieldSettings(
        applications: Set(apps.dropFirst()),
        applicationCategories: .specific(Set(categories), except: Set(apps.suffix(1))))
    _ = try? settings.evaluate(.application(app, category: category))
    return 0
}
