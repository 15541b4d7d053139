// Naive baseline: bytes turned into DeviceActivity calls on a simulated device (a schedule from two bytes, a
// start, a stop, some use). A crash is the only oracle.
import Foundation
import ScreenTimeReference

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let device = DeviceActivitySimulator(
        now: Date(timeIntervalSince1970: 1_780_000_000), timeZone: TimeZone(identifier: "America/New_York")!)
    let center = DeviceActivityCenter(simulator: device)
    var i = 0
    while i + 2 < bytes.count {
        let (op, a, b) = (bytes[i], Int(bytes[i + 1]), Int(bytes[i + 2]))
        i += 3
        switch op % 4 {
        case 0:
            let schedule = DeviceActivitySchedule(
                intervalStart: DateComponents(hour: a % 25, minute: b % 61),
                intervalEnd: DateComponents(hour: b % 25, minute: a % 61), repeats: op & 4 == 0)
            try? center.startMonitoring(DeviceActivityName("a\(a % 24)"), during: schedule)
        case 1: center.stopMonitoring(op & 4 == 0 ? [] : [DeviceActivityName("a\(a % 24)")])
        case 2: device.use(.device, for: TimeInterval(a * 60))
        default: device.advance(by: TimeInterval(a * 600 + b))
        }
    }
    return 0
}
