import Foundation
import _CommandSupport

// stc: the Screen Time conformance and fuzz suite's command-line tool. Each command is a thin shell over
// the libraries; see `stc --help`.
exit(CommandTable.run(Array(CommandLine.arguments.dropFirst())))
