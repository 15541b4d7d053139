/// The principal class of a device activity monitor extension: subclass it and override the callbacks (mirrors
/// `DeviceActivity.DeviceActivityMonitor`). In the reference, a ``DeviceActivitySimulator`` calls them.
///
/// Each callback is delivered only while the device is in use, at the first in-use moment at or after it is due
/// (SPEC.md §8.3). The base implementations do nothing. Source: Apple: DeviceActivityMonitor.
///
/// ```swift
/// final class Monitor: DeviceActivityMonitor {
///     let store = ManagedSettingsStore()
///     override func intervalDidStart(for activity: DeviceActivityName) {
///         super.intervalDidStart(for: activity)
///         store.shield.applications = blocked
///     }
/// }
/// ```
open class DeviceActivityMonitor {
    public init() {}

    /// The activity's interval started: the first use of the device inside it. Source: Apple:
    /// DeviceActivityMonitor.intervalDidStart(for:).
    open func intervalDidStart(for activity: DeviceActivityName) {}

    /// The activity's interval ended: the first use after it, or monitoring of an ongoing interval stopped.
    /// Source: Apple: DeviceActivityMonitor.intervalDidEnd(for:).
    open func intervalDidEnd(for activity: DeviceActivityName) {}

    /// An event's counted usage reached its threshold (once per interval). Source: Apple:
    /// DeviceActivityMonitor.eventDidReachThreshold(_:activity:).
    open func eventDidReachThreshold(_ event: DeviceActivityEvent.Name, activity: DeviceActivityName) {}

    /// The interval starts in `warningTime`. Source: Apple: DeviceActivityMonitor.intervalWillStartWarning(for:).
    open func intervalWillStartWarning(for activity: DeviceActivityName) {}

    /// The interval ends in `warningTime` (clamped to its start). Source: Apple:
    /// DeviceActivityMonitor.intervalWillEndWarning(for:).
    open func intervalWillEndWarning(for activity: DeviceActivityName) {}

    /// An event is `warningTime` of usage away from its threshold. Source: Apple:
    /// DeviceActivityMonitor.eventWillReachThresholdWarning(_:activity:).
    open func eventWillReachThresholdWarning(_ event: DeviceActivityEvent.Name, activity: DeviceActivityName) {}
}
