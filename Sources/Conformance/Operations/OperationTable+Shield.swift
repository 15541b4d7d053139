import StrictJSON
import ScreenTimeReference

extension OperationTable {
    // Filled in by the Shield work; until then the operations answer `unsupported`.
    static var shieldOperations: [Operation] { [] }
}
