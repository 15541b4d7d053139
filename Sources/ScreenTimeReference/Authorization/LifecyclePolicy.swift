/// What a blocker app should do with the authorization statuses it observes: a pure state machine,
/// observations in, actions out (`SPEC.md` §3 "App lifecycle policy"). Adopt it as is: feed it every status read
/// (at launch, on each return to the foreground) and every completed pick, and perform the actions it returns.
///
/// Rules:
/// - It starts approved with shields active (an app that was set up and then relaunched).
/// - `notDetermined` never changes anything, however often it is seen (iOS reports it briefly at launch;
///   device observation).
/// - The status is the last `denied`/`approved` seen (`approvedWithDataAccess` counts as `approved`); only its
///   transitions act:
///   - approved → denied (a revocation episode): if shields are active, `clearShields` then `notifyRevoked`,
///     so one notice per episode and none when there was no shield to lose;
///   - denied → approved: `requirePick` (the old selection's tokens are void; shields stay off until a new pick);
///   - denied → denied and approved → approved: nothing.
/// - A `pick` while approved makes shields active; a `pick` while denied is ignored.
/// - No action ever re-applies tokens from before a revocation.
///
/// ```swift
/// var policy = LifecyclePolicy()
/// policy.observe(.status(.notDetermined)) // []
/// policy.observe(.status(.denied))        // [.clearShields, .notifyRevoked]
/// policy.observe(.status(.approved))      // [.requirePick]
/// policy.observe(.pick)                   // [], shieldsActive == true
/// ```
///
/// Source: Apple doc (revocation voids tokens) and device observation (transient `notDetermined`); the policy
/// itself is the reference's, `SPEC.md` §3.
public struct LifecyclePolicy: Hashable, Sendable {
    /// One thing the app observed.
    public enum Observation: Hashable, Sendable {
        /// A status read from `AuthorizationCenter.shared.authorizationStatus`.
        case status(AuthorizationStatus)
        /// The user completed a pick in `FamilyActivityPicker` and the app applied it.
        case pick
    }

    /// One thing the app must do, in the order returned.
    public enum Action: String, Hashable, Sendable, CaseIterable {
        /// Clear the shield settings of every store the app uses.
        case clearShields
        /// Tell the user once that Screen Time access was turned off.
        case notifyRevoked
        /// Ask the user to pick again; the previous selection must not be re-applied.
        case requirePick
    }

    /// Whether the last decisive status (`denied`/`approved`) was approved.
    public private(set) var isApproved: Bool
    /// Whether shields are applied now.
    public private(set) var shieldsActive: Bool
    /// Whether the app is waiting for a new pick after a re-approval. (Ours.)
    public private(set) var awaitingPick: Bool

    /// A policy in the given state; the defaults are the spec's start: approved, shields active.
    public init(isApproved: Bool = true, shieldsActive: Bool = true) {
        self.isApproved = isApproved
        self.shieldsActive = shieldsActive
        self.awaitingPick = false
    }

    /// Feeds one observation; returns the actions to perform now.
    @discardableResult
    public mutating func observe(_ observation: Observation) -> [Action] {
        switch observation {
        case .status(.notDetermined):
            return []
        case .status(.denied):
            guard isApproved else { return [] }
            isApproved = false
            awaitingPick = false
            guard shieldsActive else { return [] }
            shieldsActive = false
            return [.clearShields, .notifyRevoked]
        case .status(.approved), .status(.approvedWithDataAccess):
            guard !isApproved else { return [] }
            isApproved = true
            awaitingPick = true
            return [.requirePick]
        case .pick:
            guard isApproved else { return [] }
            shieldsActive = true
            awaitingPick = false
            return []
        }
    }

    /// Feeds observations in order; returns all their actions, concatenated.
    @discardableResult
    public mutating func observe(_ observations: some Sequence<Observation>) -> [Action] {
        observations.flatMap { observe($0) }
    }
}
