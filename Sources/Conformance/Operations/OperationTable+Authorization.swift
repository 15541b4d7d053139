import StrictJSON
import ScreenTimeReference

extension OperationTable {
    // Filled in by the Authorization work; until then the operations answer `unsupported`.
    static var authorizationOperations: [Operation] { [] }
}
