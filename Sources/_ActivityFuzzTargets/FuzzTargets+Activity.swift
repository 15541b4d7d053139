@_exported import _FuzzCore  // the activity shims import only this module

extension FuzzTargets {
    /// The DeviceActivity targets (SPEC §8), in `stc fuzz list` order. Two targets, not one binary with a mode
    /// byte: one per property family, as SPEC §6 lists them (`selection-decode` / `selection-differential`), so that
    /// each has its own corpus, dictionary and `-max_len`, and the fuzzer's view of Foundation's calendar answers
    /// never competes with the monitoring engine's branches for the same inputs.
    public static let activityTargets: [FuzzTarget] = [activityTimeline, activityCalendar]

    /// `activity-timeline`: the bytes become a small timeline (a zone, a start in 2026 near a daylight-saving
    /// change or a midnight, up to 16 steps) run through `MonitoringEngine` as `activity.monitor` runs it; the
    /// callbacks keep SPEC §8.2–§8.5's invariants, the run is deterministic, and the iOS-named API (the simulator,
    /// `DeviceActivityCenter`, a `DeviceActivityMonitor`) delivers the same callbacks.
    ///
    /// `maxLength` 512: a header of 6 bytes and 16 steps of at most ~30 bytes each.
    public static let activityTimeline = FuzzTarget(
        name: "activity-timeline",
        summary:
            "timelines through MonitoringEngine: callbacks ordered, paired, in use, once per interval; deterministic; simulator agrees",
        maxLength: 512
    ) { bytes in
        ActivityTimelineHarness.check(bytes)
    }

    /// `activity-calendar`: our `ComponentPattern.firstMatch(after:zone:)` against Foundation's Gregorian
    /// `Calendar.nextDate(after:matching:matchingPolicy: .nextTime, repeatedTimePolicy: .first, direction:
    /// .forward)` in the same zone, over components in and out of range and a moment in 2026; they agree except
    /// where a named ``CalendarDeviation`` (a rule of SPEC §8.1) explains the difference.
    ///
    /// `maxLength` 64: a zone, a moment and seven components take 14 bytes; the rest is ignored.
    public static let activityCalendar = FuzzTarget(
        name: "activity-calendar",
        summary:
            "ComponentPattern.firstMatch vs Calendar.nextDate(.nextTime, .first): agree except named SPEC §8.1 deviations",
        maxLength: 64
    ) { bytes in
        CalendarDifferential.compare(bytes).failure
    }
}
