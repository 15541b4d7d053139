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
