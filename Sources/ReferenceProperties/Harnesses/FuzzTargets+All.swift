import FuzzHarnesses

extension FuzzTargets {
    /// Every fuzz target, in `stc fuzz list` order: the byte-level ones (FuzzHarnesses), then the structured ones
    /// (StructuredFuzzTargets).
    public static var all: [FuzzTarget] {
        [selectionDecode, selectionJSON, selectionDifferential, url, template, shield, auth]
    }

    public static func named(_ name: String) -> FuzzTarget? { all.first { $0.name == name } }
}
