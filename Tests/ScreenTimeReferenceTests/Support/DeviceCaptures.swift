import Foundation
import Testing
import _TestSupport

/// The device-made selections in `../shared/fixtures/device-selections/` (third-party data, never copied here).
/// `STC_SHARED_DIR` overrides where `shared/` is.
enum DeviceCaptures {
    static let directory = PackagePaths.deviceCaptures

    static var available: Bool {
        FileManager.default.fileExists(atPath: directory.appendingPathComponent("all-categories.b64").path)
    }

    static let skipReason: Comment =
        "device captures not found at ../shared/fixtures/device-selections (set STC_SHARED_DIR)"

    static func string(_ name: String) throws -> String {
        let text = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
        return text.trimmingCharacters(in: .newlines)
    }
}
