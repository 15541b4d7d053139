import StrictJSON
import ScreenTimeReference

extension OperationTable {
    static var selectionOperations: [Operation] { [] }
}
