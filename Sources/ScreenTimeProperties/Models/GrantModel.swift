import ScreenTimeReference

/// The spec's model of grants (`SPEC.md` §3): status, running grant, the grant of every minted token, and the
/// tokens the store shields.
public struct GrantModel: Sendable, Hashable {
    public var status: AuthorizationStatus = .notDetermined
    public var running: Int?
    public var grantsStarted = 0
    public var tokenGrant: [Int] = []
    public var shielded: Set<Int> = []

    public init() {}

    public func isVoid(_ token: Int) -> Bool { tokenGrant.indices.contains(token) && tokenGrant[token] != running }

    public mutating func apply(_ command: GrantCommand) {
        switch command {
        case .request(let approve):
            guard status != .approved else { return }
            if approve {
                grantsStarted += 1
                running = grantsStarted
                status = .approved
            } else {
                status = .denied
            }
        case .revoke:
            guard status == .approved else { return }
            running = nil
            status = .denied
            shielded = []
        case .pick:
            if let running { tokenGrant.append(running) }
        case .shield(let i):
            if tokenGrant.indices.contains(i) { shielded.insert(i) }
        case .launch:
            break
        }
    }
}

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
