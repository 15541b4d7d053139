import Testing

@testable import ScreenTimeReference

/// `ScreenTimeEnvironment.StoreTable`, the environment's stores in store order, against a dictionary: after every
/// step of seeded random histories (set, replace, set unset settings, remove, read), the table holds exactly the
/// dictionary's stores with some setting, ascending, and answers every lookup as the dictionary does.
@Suite struct StoreTableTests {
    static let identities: [ManagedSettingsStore.Identity] =
        [.unnamed] + ["a", "b", "c", "focus", "m", "z", "Ä"].map { .named(.init($0)) }

    @Test func matchesADictionaryOverRandomHistories() {
        let settings: [ShieldSettings?] = [
            nil, ShieldSettings(), ShieldSettings(applications: [app("mail")]),
            ShieldSettings(webDomains: [web("news")]),
            ShieldSettings(applicationCategories: .all()),
        ]
        for seed in UInt64(1)...40 {
            var generator = SeededGenerator(seed: seed)
            var table = ScreenTimeEnvironment.StoreTable<ShieldSettings>()
            var model: [ManagedSettingsStore.Identity: ShieldSettings] = [:]
            for step in 0..<60 {
                let identity = Self.identities[Int(generator.next() % UInt64(Self.identities.count))]
                let value = settings[Int(generator.next() % UInt64(settings.count))]
                table[identity] = value
                model[identity] = value.flatMap { $0.isUnset ? nil : $0 }
                let expected = model.keys.sorted()
                #expect(table.identities == expected, "seed \(seed), step \(step)")
                #expect(table.settings == expected.compactMap { model[$0] }, "seed \(seed), step \(step)")
                for probe in Self.identities {
                    #expect(table[probe] == model[probe], "seed \(seed), step \(step), \(probe)")
                }
            }
        }
    }
}

/// SplitMix64, so that a failing history is the same on every run.
private struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
