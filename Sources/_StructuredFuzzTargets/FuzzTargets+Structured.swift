import PropertyTesting
import ScreenTimeProperties
@_exported import _FuzzCore  // the shims of the structured targets import only this module

extension FuzzTargets {
    /// The targets of this module, in `stc fuzz list` order.
    public static let structuredTargets = [shield, auth, settings]

    /// Replay (`swift test`, `stc fuzz replay`) runs every property of a family on the same bytes, each reading
    /// them through its own generator, and turns the first failure into a ``HarnessFailure`` with the
    /// counterexample, as `stc check NAME --replay` shows it. libFuzzer runs one property per input, chosen by a
    /// hash of the bytes (the bytes themselves are unchanged, so seeds keep their meaning): many more executions
    /// per second (docs/PERFORMANCE.md#decisions), and a crash it saves fails the full replay too.
    ///
    /// `properties`: the family's properties in catalog order. `maxLength` 1024: far more choices than any seed
    /// uses (they are tens of bytes), so the fuzzer can grow long histories and many stores.
    static func structured(_ name: String, summary: String, properties: [Property]) -> FuzzTarget {
        @Sendable func failure(of property: Property, _ bytes: [UInt8]) -> HarnessFailure? {
            guard !property.holds(bytes) else { return nil }
            let replay = property.check(RunConfiguration(replay: bytes, saveFailures: false))
            let details =
                replay.failure.map { "\($0.message)\n\($0.counterexample)\n  replay: \(replay.replayLine ?? "")" }
                ?? "fails on these bytes"
            return HarnessFailure(property.name, details)
        }
        return FuzzTarget(
            name: name, summary: summary, maxLength: 1024,
            body: { bytes in
                for property in properties { if let f = failure(of: property, bytes) { return f } }
                return nil
            },
            fuzzBody: { bytes in
                guard !properties.isEmpty else { return nil }
                var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a
                for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
                return failure(of: properties[Int(hash % UInt64(properties.count))], bytes)
            })
    }

    /// The properties `shield` runs: the catalog's `shield.*`, in catalog order (a test checks it).
    package static let shieldFamily = ReferenceProperties.shieldProperties
    /// The properties `auth` runs: the catalog's `auth.*` and `lifecycle.*`, in catalog order (a test checks it).
    package static let authFamily =
        ReferenceProperties.authorizationProperties + ReferenceProperties.lifecycleProperties

    /// The properties `settings` runs: the catalog's `settings.*`, in catalog order (a test checks it).
    package static let settingsFamily = ReferenceProperties.settingsProperties

    /// `shield`: fuzzer bytes become stores, policies and activities over small token universes; every
    /// `shield.*` property must hold (SPEC §2).
    public static let shield = structured(
        "shield",
        summary: "bytes → stores, policies, activities: every shield.* property (precedence, monotonicity, limits, …)",
        properties: shieldFamily)

    /// `auth`: fuzzer bytes become authorization histories and status observations; every `auth.*` and
    /// `lifecycle.*` property must hold (SPEC §3).
    public static let auth = structured(
        "auth",
        summary:
            "bytes → grant histories and status observations: every auth.* and lifecycle.* property (voiding, policy)",
        properties: authFamily)

    /// `settings`: fuzzer bytes become steps on several stores (web filter, hidden apps, restrictions, shields,
    /// `clearAllSettings()`) and a query; every `settings.*` property must hold (SPEC §9).
    public static let settings = structured(
        "settings",
        summary:
            "bytes → store steps and a query: every settings.* property (the §9 model, clearAllSettings, limits, domains)",
        properties: settingsFamily)
}
