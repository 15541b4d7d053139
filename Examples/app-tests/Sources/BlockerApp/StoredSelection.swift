import Foundation

#if canImport(FamilyControls)
    import FamilyControls
#else
    import ScreenTimeReference
#endif

/// The picker's selection as the app keeps it in its App Group's `UserDefaults`: base64 of `JSONEncoder`'s output.
public enum StoredSelection {
    public static let defaultsKey = "blockedSelection"

    /// The string saved after a pick.
    public static func encode(_ selection: FamilyActivitySelection) throws -> String {
        try JSONEncoder().encode(selection).base64EncodedString()
    }

    /// The selection to apply, read at every launch.
    public static func load(_ stored: String) -> FamilyActivitySelection {
        let data = Data(base64Encoded: stored)!
        return selection(from: data)
    }

    /// The selection in the stored JSON; a document that does not decode reads as no selection.
    public static func selection(from data: Data) -> FamilyActivitySelection {
        (try? JSONDecoder().decode(FamilyActivitySelection.self, from: data)) ?? FamilyActivitySelection()
    }

    /// Whether two stored selections block the same things: the settings screen's "unsaved changes" dot.
    public static func same(_ a: String, _ b: String) -> Bool {
        load(a) == load(b)
    }
}
