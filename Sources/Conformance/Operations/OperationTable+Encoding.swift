import StrictJSON
import ScreenTimeReference

extension OperationTable {
    // Filled in by the Encoding work; until then the operations answer `unsupported`.
    static var encodingOperations: [Operation] { [] }
}
