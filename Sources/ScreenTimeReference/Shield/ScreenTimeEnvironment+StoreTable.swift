/// Settings a store table holds: the shield, or the other groups (``ManagedSettingsGroups``).
protocol StoreGroup: Sendable, Equatable {
    /// Nothing set: the table drops the store.
    var isUnset: Bool { get }
}

extension ShieldSettings: StoreGroup {}
extension ManagedSettingsGroups: StoreGroup {}

extension ScreenTimeEnvironment {
    /// Every store of an environment that has some setting, in ``ManagedSettingsStore/Identity`` order (unnamed
    /// first, then by name). (Ours.)
    ///
    /// Two parallel arrays rather than a dictionary: an app has a handful of stores, every shield verdict reads all
    /// of them, and an array of settings can be handed to ``ShieldEvaluation`` as it is, in the order that names the
    /// store of a ``ShieldLimitExceeded``. (With a dictionary, each verdict copied the settings into a new array,
    /// and an error needed a second, sorted pass.)
    struct StoreTable<Settings: StoreGroup>: Sendable {
        /// The stores, ascending.
        private(set) var identities: [ManagedSettingsStore.Identity] = []
        /// `settings[i]` is the settings of `identities[i]`; never unset (``StoreGroup/isUnset``).
        private(set) var settings: [Settings] = []

        /// Where `identity` is, or where it would go: the first position whose identity is not below it.
        private func position(of identity: ManagedSettingsStore.Identity) -> Int {
            var low = 0
            var high = identities.count
            while low < high {
                let middle = low + (high - low) / 2
                if identities[middle] < identity { low = middle + 1 } else { high = middle }
            }
            return low
        }

        /// The settings of `identity`; `nil` when it has none. Setting `nil` or unset settings removes the store.
        subscript(identity: ManagedSettingsStore.Identity) -> Settings? {
            get {
                let index = position(of: identity)
                return index < identities.count && identities[index] == identity ? settings[index] : nil
            }
            set {
                let index = position(of: identity)
                let present = index < identities.count && identities[index] == identity
                switch (newValue, present) {
                case (let value?, true) where !value.isUnset:
                    settings[index] = value
                case (let value?, false) where !value.isUnset:
                    identities.insert(identity, at: index)
                    settings.insert(value, at: index)
                case (_, true):
                    identities.remove(at: index)
                    settings.remove(at: index)
                case (_, false):
                    break
                }
            }
        }
    }
}
