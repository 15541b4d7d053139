// The kit's adapter over ScreenTimeImplementation.reference, run as a subprocess by ScreenTimeTestingTests. With
// --force-unwrap, selection.decode force-unwraps Foundation's base64 decoding first (field bug 1), so a stored
// string Foundation cannot read traps the adapter.
import Foundation
import ScreenTimeTesting

var implementation = ScreenTimeImplementation.reference
if CommandLine.arguments.contains("--force-unwrap") {
    implementation.decodeSelection = { stored in
        let json = Data(base64Encoded: stored)!
        return try FamilyActivitySelection(storedBase64: json.base64EncodedString())
    }
}
ScreenTimeAdapter.serve(implementation)
