#if canImport(DeviceActivity)
    import DeviceActivity
    import FamilyControls
    import ManagedSettings
#else
    import ScreenTimeReference
#endif
import Foundation

extension DeviceActivityName {
    /// The nightly schedule: shields up from bedtime to morning.
    public static let bedtime = Self("bedtime")
    /// A break: shields down for a few minutes, then up again.
    public static let breakTime = Self("break")
}

extension DeviceActivityEvent.Name {
    /// The daily limit on the picked apps.
    public static let dailyLimit = Self("dailyLimit")
}

/// The app's scheduling, as it sits in the iOS app: the bedtime schedule with a daily limit, and breaks.
public enum Scheduling {
    /// Starts (or replaces) the nightly schedule, with a limit on the picked apps' use during it.
    public static func startBedtime(
        from start: DateComponents, to end: DateComponents, limit: DateComponents, on selection: FamilyActivitySelection,
        center: DeviceActivityCenter = DeviceActivityCenter()
    ) throws {
        let schedule = DeviceActivitySchedule(
            intervalStart: start, intervalEnd: end, repeats: true, warningTime: DateComponents(minute: 5))
        let event = DeviceActivityEvent(
            applications: selection.applicationTokens, categories: selection.categoryTokens,
            webDomains: selection.webDomainTokens, threshold: limit)
        try center.startMonitoring(.bedtime, during: schedule, events: [.dailyLimit: event])
    }

    /// "Unblock for N minutes": a one-off schedule from now to now plus the break.
    ///
    /// The bug (SPEC.md §7.15, field bug 15): the end is kept on today's date, so a break that would cross
    /// midnight is clamped to 23:59:59, and one shorter than 15 minutes after the clamp makes `startMonitoring`
    /// throw `intervalTooShort`, which is only printed.
    public static func startBreak(
        minutes: Int, now: Date = Date(), calendar: Calendar = .current,
        center: DeviceActivityCenter = DeviceActivityCenter()
    ) {
        let start = calendar.dateComponents([.hour, .minute, .second], from: now)
        var endDate = now.addingTimeInterval(TimeInterval(minutes * 60))
        if !calendar.isDate(endDate, inSameDayAs: now) {
            endDate = calendar.date(bySettingHour: 23, minute: 59, second: 59, of: now) ?? endDate
        }
        let end = calendar.dateComponents([.hour, .minute, .second], from: endDate)
        let schedule = DeviceActivitySchedule(intervalStart: start, intervalEnd: end, repeats: false)
        do {
            try center.startMonitoring(.breakTime, during: schedule)
        } catch {
            print("Could not start the break: \(error)")
        }
    }

    /// Ends a break early.
    public static func endBreak(center: DeviceActivityCenter = DeviceActivityCenter()) {
        center.stopMonitoring([.breakTime])
    }
}

/// The monitor extension's principal class: shields the picked apps during bedtime and once the daily limit is
/// reached, lifts them during a break.
open class BlockerMonitor: DeviceActivityMonitor {
    public let store: ManagedSettingsStore
    public let selection: FamilyActivitySelection

    public init(store: ManagedSettingsStore, selection: FamilyActivitySelection) {
        self.store = store
        self.selection = selection
        super.init()
    }

    open override func intervalDidStart(for activity: DeviceActivityName) {
        super.intervalDidStart(for: activity)
        switch activity {
        case .bedtime: shield()
        case .breakTime: store.shield.applications = nil
        default: break
        }
    }

    open override func intervalDidEnd(for activity: DeviceActivityName) {
        super.intervalDidEnd(for: activity)
        switch activity {
        case .bedtime: store.shield.applications = nil
        case .breakTime: shield()
        default: break
        }
    }

    open override func eventDidReachThreshold(_ event: DeviceActivityEvent.Name, activity: DeviceActivityName) {
        super.eventDidReachThreshold(event, activity: activity)
        if event == .dailyLimit { shield() }
    }

    private func shield() {
        store.shield.applications = selection.applicationTokens.isEmpty ? nil : selection.applicationTokens
    }
}
