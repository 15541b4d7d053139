import Foundation
import _CommandSupport

// lab: the suite's benchmarks, bug-finding benchmark and mutation testing. Each command is a thin shell over the
// lab's libraries; see `lab --help`.
exit(LabCommands.root.dispatch(Array(CommandLine.arguments.dropFirst())))
