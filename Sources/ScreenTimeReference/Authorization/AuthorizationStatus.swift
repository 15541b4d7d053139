/// Whether the app may use Screen Time (mirrors `FamilyControls.AuthorizationStatus`).
///
/// Rule: `approvedWithDataAccess` (iOS 26.4) counts as approved everywhere in the reference.
/// iOS reports `notDetermined` briefly at launch even for an approved app (device observation), which is why the
/// ``LifecyclePolicy`` ignores it.
///
/// ```swift
/// AuthorizationStatus.approvedWithDataAccess.isApproved // true
/// ```
///
/// Source: Apple doc (AuthorizationStatus); `SPEC.md` §3.
public enum AuthorizationStatus: String, Hashable, Sendable, CaseIterable {
    case notDetermined
    case denied
    case approved
    /// iOS 26.4; treated as ``approved``.
    case approvedWithDataAccess

    /// True for `approved` and `approvedWithDataAccess`. (Ours.)
    public var isApproved: Bool { self == .approved || self == .approvedWithDataAccess }
}

/// Who authorizes the app (mirrors `FamilyControls.FamilyControlsMember`).
///
/// `individual`: the device's own user, with Face ID / Touch ID; `child`: a parent or guardian approves through
/// Family Sharing. Source: Apple doc.
public enum FamilyControlsMember: String, Hashable, Sendable, CaseIterable {
    case individual
    case child
}

/// Why an authorization call failed (mirrors `FamilyControls.FamilyControlsError`). Source: Apple doc.
public enum FamilyControlsError: Error, Hashable, Sendable, CaseIterable {
    case restricted
    case unavailable
    case invalidAccountType
    case invalidArgument
    case authorizationConflict
    case authorizationCanceled
    case networkError
    case authenticationMethodUnavailable
}

/// One period of authorization: from an approval to the revocation that ends it. (Ours.)
///
/// Tokens are minted under the grant running at pick time and are void once it ends; a later approval starts a
/// new grant with a new number, so old tokens never come back. Source: Apple doc (FamilyActivitySelection: tokens
/// are voided on revocation); the numbering is ours.
public struct AuthorizationGrant: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// 1 for the first grant of an environment, then 2, 3, …
    public var number: Int
    public init(number: Int) { self.number = number }
    public static func < (lhs: AuthorizationGrant, rhs: AuthorizationGrant) -> Bool { lhs.number < rhs.number }
    public var description: String { "grant #\(number)" }
}
