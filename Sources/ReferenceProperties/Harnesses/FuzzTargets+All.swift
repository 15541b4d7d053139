import FuzzHarnesses

extension FuzzTargets {
    /// Every fuzz target, in `stc fuzz list` order: the byte-level ones from FuzzHarnesses, then the structured
    /// ones declared here.
    public static var all: [FuzzTarget] {
        [selectionDecode, selectionJSON, selectionDifferential, url, template, shield, auth]
    }

    public static func named(_ name: String) -> FuzzTarget? { all.first { $0.name == name } }
}
