import BlockerApp
import ScreenTimeTesting

extension ScreenTimeImplementation {
    /// The app's own functions, operation by operation, for the tests (in process) and for `blocker-adapter`.
    ///
    /// `StoredSelection.load` force-unwraps its base64 decoding, and `StoredSelection.same` calls it: a malformed
    /// stored string traps them. So `selection.decode` and `selection.equal` are `mayTrap`: the in-process checks
    /// leave them out, and `stc conformance --adapter .build/debug/blocker-adapter` reports the trap as `crash`.
    public static let blockerApp = ScreenTimeImplementation(
        name: "BlockerApp",
        decodeSelection: { StoredSelection.load($0) },
        selectionsEqual: { StoredSelection.same($0, $1) },
        displayOrder: { selection, kind in
            let list = BlockedList(selection)
            switch kind {
            case .application: return list.apps.map(TokenIdentity.init)
            case .category: return list.categories.map(TokenIdentity.init)
            case .webDomain: return list.sites.map(TokenIdentity.init)
            }
        },
        combineSelections: { a, b, operation in Blocklists.combined(a, b, BlockerAppWiring.combination(operation)) },
        evaluateShield: { stores, activity in try BlockerAppWiring.verdict(activity, stores) },
        authorizationPolicy: { observations in try BlockerAppWiring.lifecycle(observations) },
        tokenValidity: { events in
            var picks = SavedPicks()
            for event in events {
                switch event {
                case .authorize: picks.authorized()
                case .revoke: picks.revoked()
                case .pick(let name): picks.picked(name)
                }
            }
            return picks.canApply
        },
        encodeURLComponent: { AppLink.encode($0) },
        decodeURLComponent: { try AppLink.decode($0) },
        renderTemplate: { template, values in
            let (text, missing) = ShieldText.render(template, values: values)
            return ShieldTextTemplate.Rendering(text: text, missing: missing)
        },
        errorCode: { error in
            switch error {
            case is AppLinkError: return "invalidPercentEncoding"
            case is BlocklistError: return "limitExceeded"
            default: return nil
            }
        },
        mayTrap: [.selectionDecode, .selectionEqual])
}

/// The app's types in the kit's terms, and back.
enum BlockerAppWiring {
    static func combination(_ operation: FamilyActivitySelection.SetOperation) -> Blocklists.Combination {
        switch operation {
        case .union: return .merged
        case .intersection: return .shared
        case .difference: return .removing
        case .symmetricDifference: return .changes
        }
    }

    /// The lock the app's list would show, as the verdict iOS would give.
    static func verdict(_ activity: ShieldActivity, _ stores: [ShieldSettings]) throws -> ShieldVerdict {
        switch activity {
        case .application(let app, let category):
            switch try Blocklist.lock(onApp: app, in: category, stores: stores) {
            case .item?: return .shielded(.application)
            case .category(let category)?: return .shielded(.applicationCategory(category))
            case nil: return .allowed
            }
        case .webDomain(let site, let category):
            switch try Blocklist.lock(onSite: site, in: category, stores: stores) {
            case .item?: return .shielded(.webDomain)
            case .category(let category)?: return .shielded(.webDomainCategory(category))
            case nil: return .allowed
            }
        }
    }

    /// The handler fed every observation, over a store of its own; its effects as the policy's actions.
    static func lifecycle(_ observations: [LifecyclePolicy.Observation]) throws -> (
        actions: [LifecyclePolicy.Action], shieldsActive: Bool
    ) {
        let store = ManagedSettingsStore(named: Blocklist.storeName, environment: ScreenTimeEnvironment())
        var actions: [LifecyclePolicy.Action] = []
        let handler = AuthorizationHandler(store: store) { effect in
            switch effect {
            case .shieldsCleared: actions.append(.clearShields)
            case .revokedAlertShown: actions.append(.notifyRevoked)
            case .pickerRequested: actions.append(.requirePick)
            }
        }
        for observation in observations {
            switch observation {
            case .status(let status): handler.statusChanged(status)
            case .pick: try handler.picked(FamilyActivitySelection())
            }
        }
        return (actions, handler.shieldsOn)
    }
}
