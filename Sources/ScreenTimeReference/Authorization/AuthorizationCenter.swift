/// Asks for and revokes Screen Time authorization (mirrors `FamilyControls.AuthorizationCenter`).
///
/// Backed by a ``ScreenTimeEnvironment`` whose ``AuthorizationSimulator`` plays the user. Rules:
/// - ``requestAuthorization(for:)`` when already approved returns at once (no prompt, same grant);
///   otherwise the simulated user answers: approve → `approved` and a new grant; decline → `denied` and the call
///   throws `FamilyControlsError.authorizationCanceled`; failure → throws, status unchanged.
/// - ``revokeAuthorization(completionHandler:)`` when approved ends the grant (every token minted under it is
///   void forever) and clears every store's settings; when not approved it has no effect (Apple doc, for
///   `denied`) and completes with success.
///
/// ```swift
/// try await AuthorizationCenter.shared.requestAuthorization(for: .individual)
/// AuthorizationCenter.shared.authorizationStatus // .approved
/// ```
///
/// Source: Apple doc (AuthorizationCenter). Assumption: the error thrown on decline (`authorizationCanceled`),
/// that revoking from `notDetermined` also does nothing, and that a no-effect revoke completes with success.
public final class AuthorizationCenter: Sendable {
    /// The center of ``ScreenTimeEnvironment/shared``.
    public static let shared = AuthorizationCenter(environment: .shared)

    /// Where status, grants and stores live. (Ours.)
    public let environment: ScreenTimeEnvironment

    /// A center over `environment`. (Ours; iOS has only ``shared``.)
    public init(environment: ScreenTimeEnvironment) { self.environment = environment }

    /// The current status (`notDetermined` until the first request).
    public var authorizationStatus: AuthorizationStatus { environment.withState { $0.authorization.status } }

    /// Asks the user (or the parent, for `.child`) to authorize the app. See the type's rules.
    public func requestAuthorization(for member: FamilyControlsMember) async throws {
        try requestAuthorizationNow(for: member)
    }

    /// What ``requestAuthorization(for:)`` does, all of it, without suspending: the simulated user answers at once.
    /// (Package only: the property harnesses drive many histories a second and would otherwise start a task per
    /// request just to run this.)
    package func requestAuthorizationNow(for member: FamilyControlsMember) throws(FamilyControlsError) {
        let failure: FamilyControlsError? = environment.withState { state in
            if state.authorization.status.isApproved { return nil }
            switch state.authorization.response {
            case .approve:
                state.authorization.startGrant(for: member)
                return nil
            case .deny:
                state.authorization.status = .denied
                state.authorization.member = member
                return .authorizationCanceled
            case .fail(let error):
                return error
            }
        }
        if let failure { throw failure }
    }

    /// Revokes the app's authorization. See the type's rules.
    public func revokeAuthorization(completionHandler: @escaping (Result<Void, Error>) -> Void) {
        environment.withState { AuthorizationSimulator.revoke(&$0) }
        completionHandler(.success(()))
    }

    /// Revokes the app's authorization (async form).
    public func revokeAuthorization() async throws {
        environment.withState { AuthorizationSimulator.revoke(&$0) }
    }
}
