import ScreenTimeReference

/// An authorization system as the grant properties drive it: tokens are numbered in minting order.
/// ``EnvironmentGrantSystem`` is the reference; tests plug in broken ones.
public protocol GrantSystem {
    mutating func requestAuthorization(approve: Bool)
    mutating func revoke(inSettings: Bool)
    /// A pick of one application: the new token's number, or nil when nothing was minted.
    mutating func pick() -> Int?
    /// Adds token `token` to the app's store's `applications`.
    mutating func shield(_ token: Int)
    /// Whether launching the app of token `token` is shielded.
    func isShielded(_ token: Int) -> Bool
    func isVoid(_ token: Int) -> Bool
    var status: AuthorizationStatus { get }
    /// Problems the system itself reports (an async call that did not complete, …).
    var problem: String? { get }
}
