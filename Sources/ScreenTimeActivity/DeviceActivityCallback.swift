import Foundation
import ScreenTimeSelection

/// One callback the simulator delivered to the monitor: when, for which activity, which, and for which event.
/// (Ours: the record a test checks.)
///
/// ```swift
/// simulator.callbacks.map(\.kind)   // [.intervalDidStart, .eventDidReachThreshold, .intervalDidEnd]
/// ```
public struct DeviceActivityCallback: Hashable, Sendable, CustomStringConvertible {
    /// The six callbacks of `DeviceActivityMonitor`, named as its methods.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        case intervalDidStart, intervalDidEnd, eventDidReachThreshold
        case intervalWillStartWarning, intervalWillEndWarning, eventWillReachThresholdWarning
    }

    /// When it was delivered.
    public let moment: Date
    public let activity: DeviceActivityName
    public let kind: Kind
    /// The event, for the two event callbacks; `nil` otherwise.
    public let event: DeviceActivityEvent.Name?

    public init(moment: Date, activity: DeviceActivityName, kind: Kind, event: DeviceActivityEvent.Name? = nil) {
        self.moment = moment
        self.activity = activity
        self.kind = kind
        self.event = event
    }

    /// The moment in whole seconds since 1970 (UTC).
    public var seconds: Int64 { Int64(moment.timeIntervalSince1970.rounded(.down)) }

    public var description: String {
        "\(ActivityMoment.format(seconds)) \(kind.rawValue)(\(activity.rawValue)\(event.map { ", \($0.rawValue)" } ?? ""))"
    }

    /// Calls the monitor's method for this callback.
    public func deliver(to monitor: DeviceActivityMonitor) {
        switch kind {
        case .intervalDidStart: monitor.intervalDidStart(for: activity)
        case .intervalDidEnd: monitor.intervalDidEnd(for: activity)
        case .intervalWillStartWarning: monitor.intervalWillStartWarning(for: activity)
        case .intervalWillEndWarning: monitor.intervalWillEndWarning(for: activity)
        case .eventDidReachThreshold: monitor.eventDidReachThreshold(event ?? .init(""), activity: activity)
        case .eventWillReachThresholdWarning:
            monitor.eventWillReachThresholdWarning(event ?? .init(""), activity: activity)
        }
    }
}

/// What is on screen while the device is in use: an application (with its category) or a web domain, or nothing
/// in particular. Events count the seconds of a foreground they list (SPEC.md §8.4). (Ours.)
///
/// ```swift
/// simulator.use(.application(game, category: games), for: 20 * 60)
/// ```
public struct Foreground: Hashable, Sendable {
    public var application: ApplicationToken?
    public var category: ActivityCategoryToken?
    public var webDomain: WebDomainToken?

    public init(
        application: ApplicationToken? = nil, category: ActivityCategoryToken? = nil, webDomain: WebDomainToken? = nil
    ) {
        self.application = application
        self.category = category
        self.webDomain = webDomain
    }

    /// The device in use with nothing an event lists (the home screen, say): only events of all activity count it.
    public static let device = Foreground()

    /// An application in the foreground, with its category when given.
    public static func application(_ token: ApplicationToken, category: ActivityCategoryToken? = nil) -> Foreground {
        Foreground(application: token, category: category)
    }

    /// A web domain in the foreground, with its category when given.
    public static func webDomain(_ token: WebDomainToken, category: ActivityCategoryToken? = nil) -> Foreground {
        Foreground(category: category, webDomain: token)
    }
}

/// Moments as the wire writes them: `YYYY-MM-DDTHH:MM:SSZ` (SPEC.md §5.2), and read with `Z` or `±HH:MM`.
public enum ActivityMoment {
    /// `2026-03-08T07:00:00Z` for the UTC seconds of that moment.
    public static func format(_ seconds: Int64) -> String {
        let days = CivilTime.floorDiv(seconds, CivilTime.secondsPerDay)
        let (y, m, d) = CivilTime.date(days: days)
        let s = seconds - days * CivilTime.secondsPerDay
        func two(_ v: Int64) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let year = String(y)
        return String(repeating: "0", count: max(0, 4 - year.count)) + year + "-" + two(Int64(m)) + "-"
            + two(Int64(d)) + "T" + two(s / 3600) + ":" + two(s % 3600 / 60) + ":" + two(s % 60) + "Z"
    }

    /// The UTC seconds of `YYYY-MM-DDTHH:MM:SS` followed by `Z` or `±HH:MM`, or `nil` for any other text (years
    /// 0001–9999, a real date, hours 0–23, minutes and seconds 0–59, offsets under 24 hours).
    public static func parse(_ text: String) -> Int64? {
        let b = Array(text.utf8)
        guard b.count == 20 || b.count == 25 else { return nil }
        func digits(_ range: Range<Int>) -> Int? {
            var v = 0
            for i in range {
                guard b[i] >= 0x30 && b[i] <= 0x39 else { return nil }
                v = v * 10 + Int(b[i] - 0x30)
            }
            return v
        }
        guard b[4] == 0x2D, b[7] == 0x2D, b[10] == 0x54, b[13] == 0x3A, b[16] == 0x3A,
            let y = digits(0..<4), let mo = digits(5..<7), let d = digits(8..<10), let h = digits(11..<13),
            let mi = digits(14..<16), let s = digits(17..<19), y >= 1, (1...12).contains(mo),
            d >= 1, d <= CivilTime.daysIn(month: mo, year: y), h <= 23, mi <= 59, s <= 59
        else { return nil }
        var offset: Int64 = 0
        if b.count == 20 {
            guard b[19] == 0x5A else { return nil }
        } else {
            guard b[19] == 0x2B || b[19] == 0x2D, b[22] == 0x3A, let oh = digits(20..<22), let om = digits(23..<25),
                oh <= 23, om <= 59
            else { return nil }
            offset = Int64(oh * 3600 + om * 60) * (b[19] == 0x2D ? -1 : 1)
        }
        return CivilTime.localSeconds(year: y, month: mo, day: d, hour: h, minute: mi, second: s) - offset
    }
}
