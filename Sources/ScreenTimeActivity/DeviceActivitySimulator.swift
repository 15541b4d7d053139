import Foundation

/// The device, for DeviceActivity off device (ours): a virtual clock, the device's time zone, when the device is
/// in use and with what in the foreground, and the monitor extension whose callbacks it calls, recording each.
/// ``DeviceActivityCenter`` and ``DeviceActivitySchedule/nextInterval`` use ``current`` instead of the system.
///
/// Time moves only when told: ``advance(by:)`` with the device idle, ``use(_:for:)`` with it in use (or
/// ``beginUse(_:)`` … ``endUse()`` around calls made during a use). Callbacks are delivered only while the device
/// is in use (SPEC.md §8.3), as the clock moves: what falls due at a moment waits for the calls made at it
/// (§8.5). A monitor may call the center from a callback. Everything is deterministic.
///
/// ```swift
/// let device = DeviceActivitySimulator(now: eightPM, timeZone: TimeZone(identifier: "America/New_York")!,
///                                      monitor: MyMonitor())
/// try device.run { try scheduleBedtime() }        // the app's code, calling DeviceActivityCenter()
/// device.advance(by: 3600)                         // 21:00 passes while the phone is idle
/// device.use(.device, for: 60)                     // picked up at 21:00 → intervalDidStart
/// device.callbacks.map(\.kind)                     // [.intervalDidStart]
/// ```
public final class DeviceActivitySimulator: @unchecked Sendable {
    /// The simulator the iOS-named API uses in this task (``run(_:)`` sets it); by default a shared one, at the
    /// process's start time in the process's zone.
    @TaskLocal public static var current = DeviceActivitySimulator.shared

    /// The default simulator.
    public static let shared = DeviceActivitySimulator(
        now: Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down)), timeZone: .current)

    private let lock = NSLock()
    private var engine: MonitoringEngine
    private var recorded: [DeviceActivityCallback] = []
    private var monitorStorage: DeviceActivityMonitor?
    private var authorization: @Sendable () -> Bool

    /// A simulator at `now` (whole seconds) in `timeZone`, the device idle.
    ///
    /// - Parameters:
    ///   - now: The clock's start.
    ///   - timeZone: The device's time zone.
    ///   - monitor: The extension's principal class, called for each callback.
    ///   - isAuthorized: Whether the app is authorized when `startMonitoring` is called (SPEC.md §3); approved
    ///     by default.
    public init(
        now: Date, timeZone: TimeZone, monitor: DeviceActivityMonitor? = nil,
        isAuthorized: @escaping @Sendable () -> Bool = { true }
    ) {
        self.engine = MonitoringEngine(now: Int64(now.timeIntervalSince1970.rounded(.down)), zone: timeZone)
        self.monitorStorage = monitor
        self.authorization = isAuthorized
    }

    /// Runs `body` with this simulator as ``current``: the app's code inside it that says `DeviceActivityCenter()`
    /// works on this device.
    public func run<T>(_ body: () throws -> T) rethrows -> T { try Self.$current.withValue(self, operation: body) }

    /// The clock.
    public var now: Date { Date(timeIntervalSince1970: TimeInterval(locked { $0.now })) }

    /// The device's time zone.
    public var timeZone: TimeZone { locked { $0.zone } }

    /// Whether the device is in use now.
    public var isInUse: Bool { locked { $0.foreground != nil } }

    /// The monitor extension called for each callback.
    public var monitor: DeviceActivityMonitor? {
        get { lock.withLock { monitorStorage } }
        set { lock.withLock { monitorStorage = newValue } }
    }

    /// Every callback delivered so far, in order.
    public var callbacks: [DeviceActivityCallback] { lock.withLock { recorded } }

    /// Forgets the recorded callbacks (monitoring goes on).
    public func clearCallbacks() { lock.withLock { recorded.removeAll() } }

    /// Whether the app is authorized now (the check `startMonitoring` makes).
    public func isAuthorized() -> Bool { lock.withLock { authorization }() }

    /// Sets the authorization check.
    public func setAuthorization(_ isAuthorized: @escaping @Sendable () -> Bool) {
        lock.withLock { authorization = isAuthorized }
    }

    /// Authorization is revoked: every activity stops, with no callback (SPEC.md §8.2).
    public func revokeAuthorization() {
        lock.withLock {
            authorization = { false }
            engine.stopAllSilently()
        }
    }

    /// The device's time zone changes now (travel, or the user's setting): intervals not yet started are found
    /// again in `zone` (SPEC.md §8.2).
    public func setTimeZone(_ zone: TimeZone) { locked { $0.setTimeZone(zone) } }

    /// The clock moves by `seconds` with the device idle (a use under way goes on: see ``beginUse(_:)``).
    public func advance(by seconds: TimeInterval) {
        advance(to: Date(timeIntervalSince1970: TimeInterval(locked { $0.now }) + seconds.rounded(.down)))
    }

    /// The clock moves to `moment`, delivering what falls due while the device is in use. The moment reached is
    /// left to the next call: calls made at it come before its callbacks (SPEC.md §8.5).
    public func advance(to moment: Date) {
        let target = Int64(moment.timeIntervalSince1970.rounded(.down))
        // What is due at the moment reached waits for the next call (calls made at a moment come first).
        while lock.withLock({ engine.now < target }) {
            dispatchDue()
            lock.withLock { engine.advance(toward: target) }
        }
    }

    /// The device is in use for `seconds` with `foreground` on screen, then idle again.
    public func use(_ foreground: Foreground = .device, for seconds: TimeInterval) {
        beginUse(foreground)
        advance(by: seconds)
        endUse()
    }

    /// The device comes into use now. What is due is delivered when the clock next moves, after any other call
    /// made at this moment (SPEC.md §8.5): `beginUse()`, `startMonitoring(…)`, `advance(by: 1)` starts an ongoing
    /// interval at the moment of the call.
    public func beginUse(_ foreground: Foreground = .device) { locked { $0.beginUse(foreground) } }

    /// The device goes out of use now, after delivering the thresholds its use reached by now.
    public func endUse() {
        dispatch(locked { $0.deliverThresholds() })
        locked { $0.endUse() }
    }

    // MARK: Plumbing

    /// Runs `body` on the engine under the lock, then delivers the callbacks it produced (outside the lock, so a
    /// monitor may call the center).
    func withEngine<T>(_ body: (inout MonitoringEngine) -> (T, [DeviceActivityCallback])) -> T {
        let (value, produced) = lock.withLock { body(&engine) }
        dispatch(produced)
        return value
    }

    private func locked<T>(_ body: (inout MonitoringEngine) -> T) -> T { lock.withLock { body(&engine) } }

    private func dispatchDue() {
        while true {
            let due = lock.withLock { engine.deliverDue() }
            if due.isEmpty { return }
            dispatch(due)
        }
    }

    private func dispatch(_ produced: [DeviceActivityCallback]) {
        guard !produced.isEmpty else { return }
        let monitor = lock.withLock {
            recorded.append(contentsOf: produced)
            return monitorStorage
        }
        guard let monitor else { return }
        Self.$current.withValue(self) { for callback in produced { callback.deliver(to: monitor) } }
    }
}
