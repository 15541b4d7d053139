import ScreenTimeReference

extension LifecyclePolicy.Observation {
    /// `notDetermined`, `denied`, `approved`, `approvedWithDataAccess` or `pick`.
    public var name: String {
        switch self {
        case .status(let status): return status.rawValue
        case .pick: return "pick"
        }
    }
}
