import Conformance
import Foundation
import ScreenTimeTesting

/// Every shipped case, for tests that compute which cases a planted bug must fail.
let shippedCases: [ConformanceCase] = (try? ShippedSuites.load().flatMap(\.cases)) ?? []

/// The ids of the shipped cases of `op` for which `fails` holds.
func shippedIDs(_ op: String, where fails: (ConformanceCase) -> Bool) -> Set<String> {
    Set(shippedCases.filter { $0.op == op && fails($0) }.map(\.id))
}

/// The ids of the cases a result did not pass.
func failingIDs(_ result: ConformanceCheckResult) -> Set<String> {
    Set(result.statuses.filter { $0.value != .pass }.map(\.key))
}

/// `run` with relative paths read from this directory.
let testDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().path

/// The reference with one closure replaced: an implementation with exactly one planted bug.
func planted(_ change: (inout ScreenTimeImplementation) -> Void) -> ScreenTimeImplementation {
    var implementation = ScreenTimeImplementation.reference
    implementation.name = "planted"
    change(&implementation)
    return implementation
}

/// The reference's percent-encoding with the hex digits of every escape in lower case (field bug 7).
@Sendable func lowerHexEncoding(_ text: String) -> String {
    var out = ""
    var hexLeft = 0
    for character in PercentEncoding.encodeComponent(text) {
        out += hexLeft > 0 ? character.lowercased() : String(character)
        hexLeft = character == "%" ? 2 : max(0, hexLeft - 1)
    }
    return out
}
