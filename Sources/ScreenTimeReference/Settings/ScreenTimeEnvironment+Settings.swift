extension ScreenTimeEnvironment {
    // MARK: Settings groups beyond the shield (SPEC.md §9)

    func groups(of store: ManagedSettingsStore.Identity) -> ManagedSettingsGroups {
        withState { $0.groups[store] ?? ManagedSettingsGroups() }
    }

    func modifyGroups<Result>(
        of store: ManagedSettingsStore.Identity, _ body: (inout ManagedSettingsGroups) -> Result
    ) -> Result {
        withState { state in
            var groups = state.groups[store] ?? ManagedSettingsGroups()
            let result = body(&groups)
            state.groups[store] = groups
            return result
        }
    }

    /// `clearAllSettings()` of one store: its shield and every other group, in one step.
    func clearAllSettings(of store: ManagedSettingsStore.Identity) {
        withState { state in
            state.stores[store] = nil
            state.groups[store] = nil
        }
    }

    /// Every store that has some setting, shield or other, in ``ManagedSettingsStore/Identity`` order. (Ours.)
    ///
    /// Example: after `store.application.denyAppRemoval = true`, the list holds `store` with an unset shield.
    public var settingsByStore: [StoreSettings] {
        withState { state in Self.storeSettings(state) }
    }

    private static func storeSettings(_ state: State) -> [StoreSettings] {
        let identities = Set(state.stores.identities).union(state.groups.identities).sorted()
        return identities.map {
            StoreSettings(store: $0, shield: state.stores[$0] ?? ShieldSettings(), groups: state.groups[$0] ?? .init())
        }
    }

    /// The answer of every store of this environment to `query`, ignoring void tokens (`SPEC.md` §9).
    ///
    /// - Parameter query: a launch, removal, installation, URL, private browsing or restriction query.
    /// - Returns: the verdict and the stores responsible for it.
    /// - Throws: ``ManagedSettingsError`` when a store is over a limit, holds an invalid policy domain, or the URL
    ///   cannot be read.
    ///
    /// Example: `try environment.evaluate(.url("https://www.example.com")).verdict == .blocked` after
    /// `store.webContent.blockedByFilter = .specific([WebDomain(domain: "example.com")])`.
    public func evaluate(_ query: SettingsQuery) throws(ManagedSettingsError) -> SettingsAnswer {
        try withState { (state: inout State) throws(ManagedSettingsError) -> SettingsAnswer in
            let authorization = state.authorization
            return try SettingsEvaluation.evaluate(
                query, stores: Self.storeSettings(state), isVoid: { authorization.isVoid($0) })
        }
    }

    /// Whether the app can be launched: the verdict `.allowed`, `.hidden` or `.shielded(reason)`, and by which
    /// stores. (Ours.)
    ///
    /// - Parameters:
    ///   - token: the app's token.
    ///   - bundleIdentifier: its bundle identifier, when known (`blockedApplications` may name it so).
    ///   - category: its category token.
    /// - Returns: the answer of ``evaluate(_:)`` for `.launch`.
    /// - Throws: ``ManagedSettingsError`` as ``evaluate(_:)``.
    public func canLaunch(
        _ token: ApplicationToken, bundleIdentifier: String? = nil, category: ActivityCategoryToken
    ) throws(ManagedSettingsError) -> SettingsAnswer {
        try evaluate(.launch(token, bundleIdentifier: bundleIdentifier, category: category))
    }
}
