import StrictJSON

/// One measured throughput: items per second (and MB/s when the items have a byte size), min/median/max over
/// the repetitions.
public struct Figure: Sendable {
    /// Stable machine name, such as `selection.synthetic13.ours`.
    public var id: String
    public var section: String
    /// What was measured, for people.
    public var label: String
    /// What one item is (`selections`, `names`, `cases`, `renders`, `execs`, `copies`).
    public var unit: String
    public var itemsPerSecond: Stats
    /// Input bytes per item, when throughput in bytes means something.
    public var bytesPerItem: Int?
    public var repetitions: Int

    /// Megabytes (10^6 bytes) per second, when ``bytesPerItem`` is known.
    public var megabytesPerSecond: Stats? {
        bytesPerItem.map { itemsPerSecond.scaled(Double($0) / 1e6) }
    }
}

/// A ratio measured in the same run (per repetition, alternating batches), min/median/max.
public struct Ratio: Sendable {
    public var id: String
    public var section: String
    public var label: String
    public var value: Stats
    /// Shown as a percentage (a fraction of a limit) rather than as a multiple.
    public var isFraction = false
}

/// A performance target: met when the median reaches ``threshold``.
public struct TargetCheck: Sendable {
    public var id: String
    public var label: String
    public var measured: Double
    public var threshold: Double
    /// `×` for ratios, or an item rate unit such as `cases/s`.
    public var unit: String
    public var met: Bool { measured >= threshold }
}

/// A section or figure that did not run, and why.
public struct Skip: Sendable {
    public var section: String
    public var reason: String
}

/// Everything `lab bench` measured.
public struct BenchReport: Sendable {
    public var build: String
    public var machine: String
    public var plan: TimingPlan
    public var figures: [Figure] = []
    public var ratios: [Ratio] = []
    public var targets: [TargetCheck] = []
    public var skips: [Skip] = []
    /// The shrinking challenge, one entry per challenge.
    public var shrinkFigures: [ShrinkFigure] = []
    /// Remarks about the run (output checks, sanity checks).
    public var notes: [String] = []

    public init(build: String, machine: String, plan: TimingPlan) {
        self.build = build
        self.machine = machine
        self.plan = plan
    }

    public func figure(_ id: String) -> Figure? { figures.first { $0.id == id } }
    public func shrinkFigure(_ id: String) -> ShrinkFigure? { shrinkFigures.first { $0.id == id } }

    /// Every figure id of the report, of either kind.
    public var ids: [String] { figures.map(\.id) + shrinkFigures.map(\.id) }
    public func ratio(_ id: String) -> Ratio? { ratios.first { $0.id == id } }

    // MARK: JSON

    /// One JSON object; keys are written in code-point order by ``JSONWriter``, so the shape is stable.
    public var json: JSONValue {
        func stats(_ s: Stats) -> JSONValue {
            ["min": .number(rounded(s.min)), "median": .number(rounded(s.median)), "max": .number(rounded(s.max))]
        }
        var figureMembers: [String: JSONValue] = [:]
        for f in figures {
            var m: [String: JSONValue] = [
                "section": .string(f.section), "label": .string(f.label), "unit": .string(f.unit),
                "perSecond": stats(f.itemsPerSecond), "repetitions": .number(Double(f.repetitions)),
            ]
            if let bytes = f.bytesPerItem {
                m["bytesPerItem"] = .number(Double(bytes))
                if let mb = f.megabytesPerSecond { m["megabytesPerSecond"] = stats(mb) }
            }
            figureMembers[f.id] = .object(m)
        }
        var shrinkMembers: [String: JSONValue] = [:]
        for f in shrinkFigures {
            shrinkMembers[f.id] = [
                "label": .string(f.label), "seeds": .number(Double(f.seeds)), "found": .number(Double(f.found)),
                "minimal": .number(Double(f.minimal)), "fractionMinimal": .number(rounded(f.fractionMinimal)),
                "medianEvaluations": .number(rounded(f.medianEvaluations)),
                "medianShrinkMilliseconds": .number(rounded(f.medianShrinkSeconds * 1000)),
            ]
        }
        var ratioMembers: [String: JSONValue] = [:]
        var ratioDetail: [String: JSONValue] = [:]
        for r in ratios {
            ratioMembers[r.id] = .number(rounded(r.value.median))
            ratioDetail[r.id] = stats(r.value)
        }
        return [
            "build": .string(build),
            "machine": .string(machine),
            "plan": ["batchSeconds": .number(plan.batchSeconds), "repetitions": .number(Double(plan.repetitions))],
            "figures": .object(figureMembers),
            "shrinking": .object(shrinkMembers),
            "ratios": .object(ratioMembers),
            "ratioRanges": .object(ratioDetail),
            "targets": .array(
                targets.map { t in
                    [
                        "id": .string(t.id), "label": .string(t.label), "measured": .number(rounded(t.measured)),
                        "threshold": .number(t.threshold), "unit": .string(t.unit), "met": .bool(t.met),
                    ]
                }),
            "skipped": .array(skips.map { ["section": .string($0.section), "reason": .string($0.reason)] }),
            "notes": .array(notes.map(JSONValue.string)),
        ]
    }

    /// Four significant digits: enough for noisy timings, and short.
    private func rounded(_ x: Double) -> Double {
        guard x.isFinite, x != 0 else { return x.isFinite ? x : 0 }
        let magnitude = (x.magnitude).log10Floor
        let scale = pow10(3 - magnitude)
        return (x * scale).rounded() / scale
    }

    // MARK: Text

    public var text: String {
        var lines: [String] = []
        lines.append("lab bench: \(build) build, \(machine)")
        lines.append(
            "each figure: median [min … max] over \(plan.repetitions) timed batches of ~\(Format.seconds(plan.batchSeconds))"
        )
        var section = ""
        func startSection(_ name: String) {
            if name != section {
                section = name
                lines.append("")
                lines.append("== \(name) ==")
            }
        }
        // Keep the order in which sections ran: figures, ratios and skips interleave by section.
        var order: [String] = []
        for s in figures.map(\.section) + ratios.map(\.section) + skips.map(\.section) where !order.contains(s) {
            order.append(s)
        }
        for name in order {
            startSection(name)
            // A comparison's ratio goes right under its pair of figures (`X.ours`, `X.foundation` → ratio `X`).
            var shown: Set<String> = []
            for f in figures where f.section == name {
                var line = "  " + Format.pad(f.label, 52) + Format.rate(f.itemsPerSecond, unit: f.unit)
                if let mb = f.megabytesPerSecond { line += "  " + Format.rate(mb, unit: "MB/s") }
                lines.append(line)
                if f.id.hasSuffix(".foundation"), let r = ratio(String(f.id.dropLast(".foundation".count))) {
                    lines.append("  " + Format.pad(r.label, 52) + Format.ratio(r.value))
                    shown.insert(r.id)
                }
            }
            for r in ratios where r.section == name && !shown.contains(r.id) {
                lines.append(
                    "  " + Format.pad(r.label, 52) + (r.isFraction ? Format.percent(r.value) : Format.ratio(r.value)))
            }
            for s in skips where s.section == name {
                lines.append("  skipped: \(s.reason)")
            }
        }
        if !shrinkFigures.isEmpty {
            lines.append("")
            lines.append("== shrinking challenge (minimal runs; medians over the runs that found a failure) ==")
            for f in shrinkFigures {
                let minimal = "\(f.minimal)/\(f.seeds) minimal (\(Format.fixed(f.fractionMinimal * 100)) %)"
                var line = "  " + Format.pad(f.label, 32) + Format.pad(minimal, 26)
                line += Format.pad("\(Format.number(f.medianEvaluations)) evaluations", 20)
                line += Format.seconds(f.medianShrinkSeconds)
                if f.found < f.seeds { line += "  (\(f.seeds - f.found) found no failure)" }
                lines.append(line)
            }
        }
        if !targets.isEmpty {
            lines.append("")
            lines.append("== targets (median) ==")
            for t in targets {
                let value = t.unit == "×" ? Format.number(t.measured) + "×" : Format.number(t.measured) + " " + t.unit
                let goal =
                    t.unit == "×"
                    ? "≥ " + Format.number(t.threshold) + "×" : "≥ " + Format.number(t.threshold) + " " + t.unit
                lines.append(
                    "  \(t.met ? "PASS " : "BELOW") " + Format.pad(t.label, 56) + Format.pad(value, 18)
                        + "(target \(goal))")
            }
        }
        if !notes.isEmpty {
            lines.append("")
            for note in notes { lines.append("note: \(note)") }
        }
        return lines.joined(separator: "\n")
    }
}

/// Number formatting without Foundation's formatters (stable across platforms).
enum Format {
    static func pad(_ s: String, _ width: Int) -> String {
        let n = s.count
        return n >= width ? s + " " : s + String(repeating: " ", count: width - n)
    }

    /// 3 significant digits with a k/M/G suffix: `13.5k`, `1.02M`, `987`.
    static func number(_ x: Double) -> String {
        let a = x.magnitude
        if a >= 1e9 { return fixed(x / 1e9) + "G" }
        if a >= 1e6 { return fixed(x / 1e6) + "M" }
        if a >= 1e4 { return fixed(x / 1e3) + "k" }
        return fixed(x)
    }

    /// 3 significant digits (at most 2 decimals).
    static func fixed(_ x: Double) -> String {
        let a = x.magnitude
        let decimals = a >= 100 ? 0 : a >= 10 ? 1 : 2
        return decimal(x, decimals)
    }

    static func decimal(_ x: Double, _ decimals: Int) -> String {
        let scale = pow10(decimals)
        let scaled = (x * scale).rounded()
        guard scaled.magnitude < 9e18 else { return "\(x)" }
        let i = Int64(scaled)
        let sign = i < 0 ? "-" : ""
        let whole = i.magnitude / UInt64(scale)
        let fraction = i.magnitude % UInt64(scale)
        guard decimals > 0 else { return sign + String(whole) }
        let digits = String(fraction)
        return sign + String(whole) + "." + String(repeating: "0", count: decimals - digits.count) + digits
    }

    static func rate(_ s: Stats, unit: String) -> String {
        pad("\(number(s.median)) \(unit)", 19) + "[\(number(s.min)) … \(number(s.max))]"
    }

    static func ratio(_ s: Stats) -> String {
        pad("\(fixed(s.median))×", 20) + "[\(fixed(s.min))× … \(fixed(s.max))×]"
    }

    static func percent(_ s: Stats) -> String {
        pad(fixed(s.median * 100) + " %", 20) + "[\(fixed(s.min * 100)) % … \(fixed(s.max * 100)) %]"
    }

    static func seconds(_ s: Double) -> String {
        s >= 1 ? fixed(s) + " s" : fixed(s * 1000) + " ms"
    }
}

func pow10(_ n: Int) -> Double {
    var r = 1.0
    if n >= 0 {
        for _ in 0..<n { r *= 10 }
    } else {
        for _ in 0..<(-n) { r /= 10 }
    }
    return r
}

extension Double {
    /// ⌊log10(self)⌋ for a positive finite value.
    var log10Floor: Int {
        var x = self
        var e = 0
        while x >= 10 {
            x /= 10
            e += 1
        }
        while x < 1 {
            x *= 10
            e -= 1
        }
        return e
    }
}
