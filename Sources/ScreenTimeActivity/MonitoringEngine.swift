import Foundation
import ScreenTimeSelection

/// The deterministic heart of monitoring (SPEC.md §8.2–§8.5): the activities, their current intervals, the
/// device's use, and the callbacks each moment delivers. ``DeviceActivitySimulator`` drives it for the iOS-named
/// API and the `activity.monitor` operation drives it from a timeline; both see the same rules.
///
/// Time moves only through ``advance(toward:)``, which stops at every moment something may be delivered;
/// ``deliverDue()`` delivers what is due at the current moment (after the calls made at it).
package struct MonitoringEngine: Sendable {
    package private(set) var now: Int64
    package private(set) var zone: TimeZone
    /// What is in the foreground while the device is in use; `nil` while it is not.
    package private(set) var foreground: Foreground?

    private var closedUses: [Use] = []
    private var openUseStart: Int64 = 0
    private var entries: [Entry] = []  // sorted by name (code point order)

    package init(now: Int64, zone: TimeZone) {
        self.now = now
        self.zone = zone
    }

    private struct Use: Sendable {
        let start: Int64
        let end: Int64
        let foreground: Foreground
    }

    struct EventPlan: Sendable {
        let name: DeviceActivityEvent.Name
        let applications: Set<ApplicationToken>
        let categories: Set<ActivityCategoryToken>
        let webDomains: Set<WebDomainToken>
        let threshold: Int64
        let includesPastActivity: Bool

        /// Whether a second of `foreground` counts (SPEC.md §8.4): a listed token, or any when none is listed.
        func counts(_ foreground: Foreground) -> Bool {
            if applications.isEmpty && categories.isEmpty && webDomains.isEmpty { return true }
            if let a = foreground.application, applications.contains(a) { return true }
            if let c = foreground.category, categories.contains(c) { return true }
            if let w = foreground.webDomain, webDomains.contains(w) { return true }
            return false
        }
    }

    private struct IntervalState: Sendable {
        let interval: ActivityInterval
        /// When it became the activity's current interval: the start of monitoring, the end of the interval
        /// before it, or a change of time zone. A warning due before then is not delivered.
        let since: Int64
        var started = false
        var willStartDone = false
        var willEndDone = false
        var warned: Set<Int> = []
        var reached: Set<Int> = []
    }

    private struct Entry: Sendable {
        let name: DeviceActivityName
        let schedule: DeviceActivitySchedule
        let events: [DeviceActivityEvent.Name: DeviceActivityEvent]
        let plan: SchedulePlan
        let eventPlans: [EventPlan]
        /// `m`: when this monitoring began.
        let monitoredFrom: Int64
        /// `false` once a non-repeating schedule's interval ended (the name has left `activities`).
        var monitored = true
        /// An earlier interval started and ended and its `intervalDidEnd` awaits the next use.
        var pendingEnd = false
        var current: IntervalState?
    }

    // MARK: Calls

    /// `startMonitoring` at the current moment (SPEC.md §8.2): the checks in order, then a stop of the same
    /// name, then monitoring from now. Returns the callbacks of the implicit stop.
    package mutating func startMonitoring(
        _ name: DeviceActivityName, during schedule: DeviceActivitySchedule,
        events: [DeviceActivityEvent.Name: DeviceActivityEvent], authorized: Bool
    ) throws(DeviceActivityCenter.MonitoringError) -> [DeviceActivityCallback] {
        guard authorized else { throw .unauthorized }
        guard let plan = SchedulePlan(schedule) else { throw .invalidDateComponents }
        var eventPlans: [EventPlan] = []
        for (eventName, event) in events {
            guard let threshold = DurationComponents.seconds(event.threshold) else { throw .invalidDateComponents }
            eventPlans.append(
                EventPlan(
                    name: eventName, applications: event.applications, categories: event.categories,
                    webDomains: event.webDomains, threshold: threshold,
                    includesPastActivity: event.includesPastActivity))
        }
        eventPlans.sort { $0.name.rawValue.unicodeScalars.lexicographicallyPrecedes($1.name.rawValue.unicodeScalars) }
        guard let interval = plan.interval(at: now, deviceZone: zone) else { throw .invalidDateComponents }
        if interval.seconds < ActivityLimits.shortest { throw .intervalTooShort }
        if interval.seconds > ActivityLimits.longest { throw .intervalTooLong }
        rollAll(through: false)
        if entries.filter({ $0.monitored && $0.name != name }).count >= ActivityLimits.activities {
            throw .excessiveActivities
        }
        let stopped = stopMonitoring([name])
        let entry = Entry(
            name: name, schedule: schedule, events: events, plan: plan, eventPlans: eventPlans,
            monitoredFrom: now, current: IntervalState(interval: interval, since: now))
        let index = entries.firstIndex { Self.precedes(entry.name, $0.name) } ?? entries.endIndex
        entries.insert(entry, at: index)
        return stopped
    }

    /// `stopMonitoring` at the current moment: the named activities (every one for `[]`), each delivering its
    /// `intervalDidEnd` now when its interval started and the end was not delivered (SPEC.md §8.2).
    package mutating func stopMonitoring(_ names: [DeviceActivityName]) -> [DeviceActivityCallback] {
        rollAll(through: false)
        let targets = Set(names)
        let stopped = entries.filter { names.isEmpty || targets.contains($0.name) }
        entries.removeAll { names.isEmpty || targets.contains($0.name) }
        return stopped.filter { !$0.plan.isMixed && ($0.pendingEnd || $0.current?.started == true) }
            .map { callback($0.name, .intervalDidEnd) }
    }

    /// Revocation: every activity stops, with no callback (SPEC.md §8.2, Assumption A23).
    package mutating func stopAllSilently() { entries.removeAll() }

    /// The device's time zone changes now: intervals that start later are found again in the new zone.
    package mutating func setTimeZone(_ newZone: TimeZone) {
        rollAll(through: false)
        zone = newZone
        for i in entries.indices {
            guard let state = entries[i].current, state.interval.start > now else { continue }
            entries[i].current = entries[i].plan.interval(at: now, deviceZone: zone).map {
                IntervalState(interval: $0, since: now)
            }
        }
    }

    /// The device comes into use now, with `foreground` on screen (ending a use already under way).
    package mutating func beginUse(_ foreground: Foreground) {
        endUse()
        self.foreground = foreground
        openUseStart = now
    }

    /// The device goes out of use now.
    package mutating func endUse() {
        if let foreground, now > openUseStart {
            closedUses.append(Use(start: openUseStart, end: now, foreground: foreground))
        }
        foreground = nil
    }

    // MARK: Queries

    /// The monitored names, in code point order.
    package mutating func activities() -> [DeviceActivityName] {
        rollAll()
        return entries.filter(\.monitored).map(\.name)
    }

    package mutating func schedule(for name: DeviceActivityName) -> DeviceActivitySchedule? {
        rollAll()
        return entries.first { $0.monitored && $0.name == name }?.schedule
    }

    package mutating func events(for name: DeviceActivityName) -> [DeviceActivityEvent.Name: DeviceActivityEvent] {
        rollAll()
        return entries.first { $0.monitored && $0.name == name }?.events ?? [:]
    }

    // MARK: Time

    /// What is due at the current moment, delivered if the device is in use (SPEC.md §8.3, order §8.5); calling
    /// it again at the same moment delivers nothing more unless a call in between made something due.
    package mutating func deliverDue() -> [DeviceActivityCallback] {
        guard foreground != nil else {
            rollAll()
            return []
        }
        var out: [DeviceActivityCallback] = []
        for i in entries.indices {
            // A threshold reached at the very end of an interval belongs to it: before its end is pending.
            if !entries[i].plan.isMixed, var state = entries[i].current, state.started, state.interval.end <= now {
                reachThresholds(entries[i], &state, into: &out)
                entries[i].current = state
            }
            roll(&entries[i])
            deliver(&entries[i], into: &out)
        }
        entries.removeAll { !$0.monitored && !$0.pendingEnd }
        return out
    }

    /// The thresholds and threshold warnings that usage up to now reaches: what a use that ends now delivers
    /// before it ends (SPEC.md §8.5).
    package mutating func deliverThresholds() -> [DeviceActivityCallback] {
        guard foreground != nil else { return [] }
        var out: [DeviceActivityCallback] = []
        for i in entries.indices where !entries[i].plan.isMixed {
            guard var state = entries[i].current, state.started, now <= state.interval.end else { continue }
            reachThresholds(entries[i], &state, into: &out)
            entries[i].current = state
        }
        return out
    }

    /// Moves the clock toward `target` (after ``deliverDue()``), stopping at the first moment something may be
    /// delivered: a boundary, a warning, or the moment an event's count reaches a threshold.
    package mutating func advance(toward target: Int64) {
        precondition(target >= now)
        guard let foreground else {
            now = target
            rollAll(through: false)
            return
        }
        var next = target
        for entry in entries where !entry.plan.isMixed {
            guard let state = entry.current else { continue }
            for due in dueMoments(entry, state, foreground) where due > now { next = min(next, due) }
        }
        now = next
    }

    // MARK: Rules

    /// The moments after which the next callback of an entry may come, given the foreground.
    private func dueMoments(_ entry: Entry, _ state: IntervalState, _ foreground: Foreground) -> [Int64] {
        let interval = state.interval
        let warning = entry.plan.warningSeconds
        var out = [interval.end]
        if !state.started {
            if warning > 0 && !state.willStartDone && interval.start - warning >= state.since {
                out.append(interval.start - warning)
            }
            out.append(max(interval.start, state.since))
            return out
        }
        if warning > 0 && !state.willEndDone { out.append(max(interval.end - warning, interval.start)) }
        for (k, event) in entry.eventPlans.enumerated() where event.counts(foreground) {
            let count = counted(event, interval, state.since, upTo: now)
            var targets: [Int64] = []
            if warning > 0 && !state.warned.contains(k) { targets.append(max(event.threshold - warning, 0)) }
            if !state.reached.contains(k) { targets.append(event.threshold) }
            for target in targets where target > count {
                let moment = now + (target - count)
                if moment <= interval.end { out.append(moment) }
            }
        }
        return out
    }

    /// Delivers what is due now for one entry (the device is in use).
    private func deliver(_ entry: inout Entry, into out: inout [DeviceActivityCallback]) {
        if entry.plan.isMixed {
            entry.pendingEnd = false
            return
        }
        if entry.pendingEnd {
            out.append(callback(entry.name, .intervalDidEnd))
            entry.pendingEnd = false
        }
        guard var state = entry.current else { return }
        let interval = state.interval
        let warning = entry.plan.warningSeconds
        if !state.started {
            if warning > 0 && !state.willStartDone && interval.start - warning >= state.since
                && now >= interval.start - warning && now < interval.start
            {
                out.append(callback(entry.name, .intervalWillStartWarning))
                state.willStartDone = true
            }
            if now >= max(interval.start, state.since) && now < interval.end {
                state.started = true
                out.append(callback(entry.name, .intervalDidStart))
            }
        }
        if state.started { reachThresholds(entry, &state, into: &out) }
        if state.started && warning > 0 && !state.willEndDone && now >= max(interval.end - warning, interval.start)
            && now < interval.end
        {
            out.append(callback(entry.name, .intervalWillEndWarning))
            state.willEndDone = true
        }
        entry.current = state
    }

    /// The warnings and thresholds that the count up to now reaches, once each per interval, by event name.
    private func reachThresholds(_ entry: Entry, _ state: inout IntervalState, into out: inout [DeviceActivityCallback])
    {
        let warning = entry.plan.warningSeconds
        for (k, event) in entry.eventPlans.enumerated() {
            let count = counted(event, state.interval, state.since, upTo: now)
            if warning > 0 && !state.warned.contains(k) && count >= max(event.threshold - warning, 0) {
                state.warned.insert(k)
                out.append(callback(entry.name, .eventWillReachThresholdWarning, event.name))
            }
            if !state.reached.contains(k) && count >= event.threshold {
                state.reached.insert(k)
                out.append(callback(entry.name, .eventDidReachThreshold, event.name))
            }
        }
    }

    /// The seconds an event counts in an interval up to `moment` (SPEC.md §8.4): in use with a matching
    /// foreground, from `c` (the round hour before the start with `includesPastActivity`, else `max(s, k)`, `k`
    /// when the interval became current: `m` for the first, so that no use counts in two intervals).
    private func counted(_ event: EventPlan, _ interval: ActivityInterval, _ since: Int64, upTo moment: Int64)
        -> Int64
    {
        let from = event.includesPastActivity ? interval.roundHourBeforeStart : max(interval.start, since)
        let to = min(moment, interval.end)
        guard to > from else { return 0 }
        var total: Int64 = 0
        func add(_ start: Int64, _ end: Int64, _ foreground: Foreground) {
            let a = max(start, from)
            let b = min(end, to)
            if b > a && event.counts(foreground) { total += b - a }
        }
        for use in closedUses where use.end > from { add(use.start, use.end, use.foreground) }
        if let foreground { add(openUseStart, now, foreground) }
        return total
    }

    // Rolling past an interval: a started one leaves its end pending; a repeating schedule takes `nextInterval` at
    // the end, in the zone of now; another one leaves `activities`.
    /// Moves every entry past the intervals that ended by now (`through`: including those ending at this very
    /// moment, which the calls made at it still see as current, SPEC.md §8.5).
    private mutating func rollAll(through: Bool = true) {
        for i in entries.indices { roll(&entries[i], through: through) }
    }

    private func roll(_ entry: inout Entry, through: Bool = true) {
        while let state = entry.current, state.interval.end < now || (through && state.interval.end == now) {
            if state.started { entry.pendingEnd = true }
            if entry.plan.repeats {
                entry.current = entry.plan.interval(at: state.interval.end, deviceZone: zone)
                    .map { IntervalState(interval: $0, since: state.interval.end) }
            } else {
                entry.current = nil
                entry.monitored = false
            }
        }
    }

    private func callback(
        _ name: DeviceActivityName, _ kind: DeviceActivityCallback.Kind, _ event: DeviceActivityEvent.Name? = nil
    ) -> DeviceActivityCallback {
        DeviceActivityCallback(
            moment: Date(timeIntervalSince1970: TimeInterval(now)), activity: name, kind: kind, event: event)
    }

    static func precedes(_ a: DeviceActivityName, _ b: DeviceActivityName) -> Bool {
        a.rawValue.unicodeScalars.lexicographicallyPrecedes(b.rawValue.unicodeScalars)
    }
}
