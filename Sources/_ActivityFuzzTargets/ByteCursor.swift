import Foundation
import _FuzzCore

/// Reads fuzzer bytes as a sequence of small choices; past the end every choice is 0, so every input decodes.
struct ByteCursor {
    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { index >= bytes.count }

    mutating func byte() -> UInt8 {
        guard index < bytes.count else { return 0 }
        defer { index += 1 }
        return bytes[index]
    }

    mutating func below(_ n: Int) -> Int { Int(byte()) % n }

    mutating func u16() -> Int { Int(byte()) << 8 | Int(byte()) }

    mutating func bool() -> Bool { byte() & 1 == 1 }
}

/// The zones both targets read moments in: daylight-saving rules of every kind (none, one hour, 30 minutes,
/// southern hemisphere, a change at midnight, half-hour and 45-minute offsets).
enum FuzzZones {
    static let names = [
        "UTC", "America/New_York", "Europe/London", "Europe/Berlin", "Australia/Lord_Howe", "America/Santiago",
        "Asia/Kolkata", "Pacific/Chatham", "America/St_Johns", "Australia/Sydney", "America/Havana", "Asia/Tehran",
        "Africa/Casablanca", "Pacific/Kiritimati", "America/Sao_Paulo", "Asia/Gaza",
    ]
    static let zones: [TimeZone] = names.map { TimeZone(identifier: $0) ?? TimeZone(secondsFromGMT: 0)! }

    static let start2026: Int64 = 1_767_225_600  // 2026-01-01T00:00:00Z
    static let end2026: Int64 = 1_798_761_600  // 2027-01-01T00:00:00Z

    /// Per zone, moments of 2026 where calendar code goes wrong: each daylight-saving change, and the local
    /// midnights before a month that a day is missing from (1 March, 1 May), of a new year, and of a month end.
    static let anchors: [[Int64]] = zones.map { zone in
        var out: [Int64] = []
        var t = Date(timeIntervalSince1970: TimeInterval(start2026 - 86_400))
        while let next = zone.nextDaylightSavingTimeTransition(after: t), next.timeIntervalSince1970 < Double(end2026) {
            out.append(Int64(next.timeIntervalSince1970))
            t = next
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        for (y, m, d) in [(2026, 1, 1), (2026, 3, 1), (2026, 5, 1), (2026, 7, 1), (2026, 12, 31), (2026, 2, 28)] {
            if let date = calendar.date(from: DateComponents(year: y, month: m, day: d)) {
                out.append(Int64(date.timeIntervalSince1970))
            }
        }
        return out
    }

    /// A zone and a moment near one of its anchors (within about ±45 hours, in 5-second steps).
    static func moment(_ cursor: inout ByteCursor) -> (zone: Int, at: Int64) {
        let zone = cursor.below(zones.count)
        let list = anchors[zone]
        let anchor = list[cursor.below(list.count)]
        let offset = Int64(cursor.u16() - 32_768) * 5
        return (zone, anchor + offset)
    }
}
