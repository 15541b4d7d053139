/// One operation of the vector format (`SPEC.md` §5), by its wire name: what a check selects and what an
/// implementation marks as able to trap.
///
/// Rule: the fourteen operations of `OperationTable`, in its order (a test keeps the two lists equal).
///
/// ```swift
/// ConformanceCheck(operations: [.urlEncode, .urlDecode])
/// ScreenTimeOperation.selectionDecode.rawValue   // "selection.decode"
/// ```
public enum ScreenTimeOperation: String, Sendable, Hashable, CaseIterable {
    case selectionDecode = "selection.decode"
    case selectionEqual = "selection.equal"
    case selectionOrder = "selection.order"
    case selectionEncode = "selection.encode"
    case selectionCombine = "selection.combine"
    case shieldEvaluate = "shield.evaluate"
    case authTokens = "auth.tokens"
    case authPolicy = "auth.policy"
    case urlEncode = "url.encode"
    case urlDecode = "url.decode"
    case templateRender = "template.render"
    case activitySchedule = "activity.schedule"
    case activityMonitor = "activity.monitor"
    case settingsEvaluate = "settings.evaluate"
}
