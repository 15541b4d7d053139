/// Keeps results alive so that the optimizer cannot drop the work that made them.
enum Sink {
    nonisolated(unsafe) static var value = 0

    @inline(never)
    static func consume(_ x: Int) { value &+= x }
}

/// Minimum, median and maximum of a set of samples.
public struct Stats: Sendable, Equatable {
    public var min: Double
    public var median: Double
    public var max: Double

    public init(min: Double, median: Double, max: Double) {
        self.min = min
        self.median = median
        self.max = max
    }

    public init(_ samples: [Double]) {
        precondition(!samples.isEmpty, "Stats of no samples")
        let sorted = samples.sorted()
        let n = sorted.count
        min = sorted[0]
        max = sorted[n - 1]
        median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2
    }

    /// Every figure scaled by `factor` (for unit changes).
    public func scaled(_ factor: Double) -> Stats {
        Stats(min: min * factor, median: median * factor, max: max * factor)
    }
}

/// Something to time: one call does `items` items of work over `bytes` input bytes, and returns a number
/// derived from its result (summed into ``Sink`` so that the work cannot be optimized away).
struct Workload {
    var items: Int
    var bytes: Int
    var run: () -> Int

    init(items: Int, bytes: Int = 0, run: @escaping () -> Int) {
        self.items = items
        self.bytes = bytes
        self.run = run
    }
}

/// How long and how often to measure.
public struct TimingPlan: Sendable {
    /// Seconds one timed batch should take.
    public var batchSeconds: Double
    /// Timed batches per figure.
    public var repetitions: Int

    /// Calls per batch fixed instead of calibrated from the clock: for `valgrind --tool=callgrind`, whose
    /// instruction counts are then the same from run to run.
    public var fixedCalls: Int?

    public init(batchSeconds: Double, repetitions: Int, fixedCalls: Int? = nil) {
        self.batchSeconds = batchSeconds
        self.repetitions = max(1, repetitions)
        self.fixedCalls = fixedCalls
    }

    /// 9 batches of ~100 ms.
    public static let standard = TimingPlan(batchSeconds: 0.1, repetitions: 9)
    /// 3 batches of ~5 ms: a smoke test, not a measurement.
    public static let quick = TimingPlan(batchSeconds: 0.005, repetitions: 3)
}

enum Timer {
    /// Calls per batch so that a batch takes about `seconds` (also warms caches and lazy globals up).
    static func calibrate(_ workload: Workload, seconds: Double) -> Int {
        var calls = 1
        while true {
            let elapsed = time(workload, calls: calls)
            if elapsed >= seconds / 4 || calls >= 1 << 30 {
                let perCall = elapsed / Double(calls)
                return Swift.max(1, Int((seconds / Swift.max(perCall, 1e-12)).rounded(.up)))
            }
            calls *= elapsed > 0 ? Swift.max(2, Swift.min(16, Int(seconds / 4 / elapsed) + 1)) : 16
        }
    }

    /// Seconds taken by `calls` calls (monotonic wall-clock time).
    static func time(_ workload: Workload, calls: Int) -> Double {
        var check = 0
        let start = ContinuousClock.now
        for _ in 0..<calls { check &+= workload.run() }
        let elapsed = ContinuousClock.now - start
        Sink.consume(check)
        return elapsed / .seconds(1)
    }

    /// Items per second, one sample per repetition.
    static func measure(_ workload: Workload, plan: TimingPlan) -> [Double] {
        let calls = plan.fixedCalls ?? calibrate(workload, seconds: plan.batchSeconds)
        return (0..<plan.repetitions).map { _ in
            Double(workload.items * calls) / Swift.max(time(workload, calls: calls), 1e-12)
        }
    }

    /// Items per second of `a` and `b`, measured in alternating batches so that both see the same load;
    /// the third array holds the per-repetition ratio a/b.
    static func measurePaired(_ a: Workload, _ b: Workload, plan: TimingPlan) -> ([Double], [Double], [Double]) {
        let callsA = plan.fixedCalls ?? calibrate(a, seconds: plan.batchSeconds)
        let callsB = plan.fixedCalls ?? calibrate(b, seconds: plan.batchSeconds)
        var ra: [Double] = []
        var rb: [Double] = []
        var ratio: [Double] = []
        for _ in 0..<plan.repetitions {
            let ta = Double(a.items * callsA) / Swift.max(time(a, calls: callsA), 1e-12)
            let tb = Double(b.items * callsB) / Swift.max(time(b, calls: callsB), 1e-12)
            ra.append(ta)
            rb.append(tb)
            ratio.append(ta / tb)
        }
        return (ra, rb, ratio)
    }
}
