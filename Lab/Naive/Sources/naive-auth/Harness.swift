// Naive baseline: each byte an authorization status read or a pick, fed to the lifecycle policy and the grant
// ledger. A crash is the only oracle.
import Foundation
import ScreenTimeReference

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var policy = LifecyclePolicy()
    var ledger = TokenGrantLedger()
    for byte in UnsafeBufferPointer(start: data, count: size) {
        switch byte % 5 {
        case 0: policy.observe(.status(.notDetermined))
        case 1:
            policy.observe(.status(.denied))
            ledger.apply(.revoke)
        case 2:
            policy.observe(.status(.approved))
            ledger.apply(.authorize)
        case 3:
            policy.observe(.pick)
            ledger.apply(.pick("app\(byte / 5)"))
        default: _ = ledger.isValid("app\(byte / 5)")
        }
    }
    return 0
}
