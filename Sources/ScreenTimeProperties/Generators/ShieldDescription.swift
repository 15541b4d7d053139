import ScreenTimeReference

/// Readable descriptions of shield values (universe labels instead of base64).
public enum ShieldDescription {
    public static func activity(_ activity: ShieldActivity) -> String {
        switch activity {
        case .application(let t, let c): return "launch \(TokenUniverse.label(t)) in \(TokenUniverse.label(c))"
        case .webDomain(let t, let c): return "visit \(TokenUniverse.label(t)) in \(TokenUniverse.label(c))"
        }
    }

    public static func policy<M>(_ policy: ShieldSettings.ActivityCategoryPolicy<M>?) -> String {
        switch policy {
        case nil: return "nil"
        case .some(.none): return ".none"
        case .some(.all(let except)): return ".all(except: \(TokenUniverse.labels(except)))"
        case .some(.specific(let cats, let except)):
            return ".specific(\(TokenUniverse.labels(cats)), except: \(TokenUniverse.labels(except)))"
        }
    }

    public static func settings(_ s: ShieldSettings) -> String {
        "applications \(TokenUniverse.labels(s.applications)), applicationCategories \(policy(s.applicationCategories)), "
            + "webDomains \(TokenUniverse.labels(s.webDomains)), webDomainCategories \(policy(s.webDomainCategories))"
    }

    public static func verdict(_ result: Result<ShieldVerdict, ShieldLimitExceeded>) -> String {
        switch result {
        case .failure(let error): return "limitExceeded(\(error.set.rawValue))"
        case .success(.allowed): return "allowed"
        case .success(.shielded(let reason)):
            return reason.category.map { "shielded(\(reason.name), \(TokenUniverse.label($0)))" }
                ?? "shielded(\(reason.name))"
        }
    }
}
