// Naive baseline: a stored selection string as a user first fuzzes it. Both ways an app reads one: the
// Foundation route (`Data(base64Encoded:)` + `JSONDecoder`) and the plain decoder call. A crash is the only oracle.
import Foundation
import ScreenTimeReference

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(bytes: data, count: size)
    if let json = Data(base64Encoded: bytes) {
        _ = try? JSONDecoder().decode(FamilyActivitySelection.self, from: json)
    }
    _ = try? FamilyActivitySelection(storedBase64: String(decoding: bytes, as: UTF8.self))
    return 0
}
