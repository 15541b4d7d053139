import ScreenTimeReference

/// The shield evaluation a property checks (defaults to `ShieldEvaluation.evaluate`).
public struct ShieldSubject: Sendable {
    public var evaluate: @Sendable ([ShieldSettings], ShieldActivity) -> Result<ShieldVerdict, ShieldLimitExceeded>

    public init(
        evaluate: @escaping @Sendable ([ShieldSettings], ShieldActivity) -> Result<ShieldVerdict, ShieldLimitExceeded> =
            ShieldSubject.referenceEvaluate
    ) {
        self.evaluate = evaluate
    }

    public static let reference = ShieldSubject()

    @Sendable public static func referenceEvaluate(_ stores: [ShieldSettings], _ activity: ShieldActivity) -> Result<
        ShieldVerdict, ShieldLimitExceeded
    > {
        Result { () throws(ShieldLimitExceeded) in try ShieldEvaluation.evaluate(activity, stores: stores) }
    }
}
