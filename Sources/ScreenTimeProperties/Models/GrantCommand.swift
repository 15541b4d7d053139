/// One step of an authorization history.
public enum GrantCommand: Sendable, Hashable, CustomStringConvertible {
    case request(approve: Bool)
    case revoke(inSettings: Bool)
    case pick
    case shield(Int)
    case launch(Int)

    public var description: String {
        switch self {
        case .request(let approve): return approve ? "request (user approves)" : "request (user declines)"
        case .revoke(let inSettings): return inSettings ? "revoke in Settings" : "revokeAuthorization()"
        case .pick: return "pick an app"
        case .shield(let i): return "shield token #\(i)"
        case .launch(let i): return "launch app of token #\(i)"
        }
    }
}
