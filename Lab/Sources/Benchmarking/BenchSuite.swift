import Foundation
import ShrinkingChallenges

/// The benchmarks of `lab bench`, section by section. Every comparison is measured in alternating batches in
/// the same run, so ratios hold up on a loaded machine even when absolute figures do not.
public struct BenchSuite {
    public var plan: TimingPlan
    /// Substrings of figure ids (`selection.synthetic13`, `url`, `runner.adapter`, `fuzz` …); empty runs all.
    public var filters: [String]
    /// The package root (holding `Package.swift`), for the fuzzers; the captures are in `../shared` beside it.
    public var packageRoot: String?
    /// The `stc` executable, for the adapter benchmark.
    public var adapterExecutable: String?
    /// Properties to time (see ``PropertyBenchmark``).
    public var properties: [PropertyBenchmark]
    /// How the fuzzers are run (see ``FuzzRunSettings``).
    public var fuzzSettings: FuzzRunSettings
    /// The shrinking challenges to run (see ``ShrinkFigure``), and over how many seeds each.
    public var challenges: [ShrinkingChallenge]
    public var shrinkSeeds: Int

    public init(
        plan: TimingPlan, filters: [String] = [], packageRoot: String?, adapterExecutable: String?,
        properties: [PropertyBenchmark] = [], fuzzSettings: FuzzRunSettings = FuzzRunSettings(),
        challenges: [ShrinkingChallenge] = ShrinkingChallenges.all, shrinkSeeds: Int = 50
    ) {
        self.plan = plan
        self.filters = filters
        self.packageRoot = packageRoot
        self.adapterExecutable = adapterExecutable
        self.properties = properties
        self.fuzzSettings = fuzzSettings
        self.challenges = challenges
        self.shrinkSeeds = shrinkSeeds
    }

    /// The targets the figures are judged against (medians).
    public enum Targets {
        public static let selectionVsFoundation = 10.0
        public static let urlVsFoundation = 3.0
        public static let runnerInProcess = 200_000.0
        public static let runnerAdapter = 20_000.0
        public static let exploreAdapter = 20_000.0
        // Fuzz exec/s are figures, not targets: how fast a fuzzer finds bugs is judged by time to find planted
        // bugs (docs/PERFORMANCE.md#targets).
    }

    func selected(_ id: String) -> Bool {
        filters.isEmpty || filters.contains { id.localizedCaseInsensitiveContains($0) }
    }

    /// Whether a section whose figure ids all start with `prefix` + "." can have a selected figure: `--filter fuzz`
    /// and `--filter fuzz.url` both select the fuzz section (its figures are then filtered one by one).
    func sectionSelected(_ prefix: String) -> Bool {
        filters.isEmpty
            || filters.contains {
                prefix.localizedCaseInsensitiveContains($0) || $0.lowercased().hasPrefix(prefix + ".")
            }
    }

    var captureDirectory: String? {
        guard let root = packageRoot else { return nil }
        let directory = (root as NSString).deletingLastPathComponent + "/shared/fixtures/device-selections"
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            return nil
        }
        return directory
    }

    /// Runs every selected section; `progress` hears the name of each section as it starts.
    public func run(build: String, progress: (String) -> Void = { _ in }) -> BenchReport {
        var report = BenchReport(build: build, machine: Self.machineDescription, plan: plan)
        progress("selection")
        selectionSection(into: &report)
        progress("url")
        urlSection(into: &report)
        progress("template")
        templateSection(into: &report)
        progress("runner")
        runnerSection(into: &report)
        progress("explore")
        exploreSection(into: &report)
        if sectionSelected("property") {
            progress("property")
            propertySection(into: &report)
        }
        if sectionSelected("shrink") {
            progress("shrink")
            shrinkSection(into: &report)
        }
        if sectionSelected("fuzz") {
            progress("fuzz")
            fuzzSection(into: &report)
        }
        addSummaryRatiosAndTargets(&report)
        return report
    }

    /// The headline ratios under their stable names, and the PASS/BELOW lines.
    func addSummaryRatiosAndTargets(_ report: inout BenchReport) {
        // Decode + canonicalize is held to the target on the direct path (`SelectionDecoder.canonicalBase64(of:)`:
        // the same checks, the canonical form written from the token texts); the path through a
        // `FamilyActivitySelection` and its sets is reported beside it.
        if let r = report.ratio("selection.synthetic13.direct") {
            report.ratios.append(
                Ratio(
                    id: "selectionDecodeVsFoundation", section: "summary",
                    label: "selection, 13 tokens/kind: ours (direct) / Foundation", value: r.value))
            report.targets.append(
                TargetCheck(
                    id: "selectionDecodeVsFoundation",
                    label: "selection decode + canonicalize (direct) vs Foundation (13/kind)",
                    measured: r.value.median, threshold: Targets.selectionVsFoundation, unit: "×"))
        }
        if let r = report.ratio("selection.synthetic13") {
            report.ratios.append(
                Ratio(
                    id: "selectionViaSelectionVsFoundation", section: "summary",
                    label: "same, through FamilyActivitySelection / Foundation", value: r.value))
        }
        if let r = report.ratio("selection.device.all-categories.direct") {
            report.targets.append(
                TargetCheck(
                    id: "selectionDecodeVsFoundation.device13",
                    label: "same, device capture all-categories (13 tokens)",
                    measured: r.value.median, threshold: Targets.selectionVsFoundation, unit: "×"))
        }
        let url = ["url.ascii", "url.nonASCII"].compactMap { report.ratio($0) }
        if let lowestMin = url.map(\.value.min).min(), let lowestMedian = url.map(\.value.median).min(),
            let lowestMax = url.map(\.value.max).min()
        {
            // The lower of the two inputs is the figure the target is held to.
            let worst = Stats(min: lowestMin, median: lowestMedian, max: lowestMax)
            report.ratios.append(
                Ratio(
                    id: "urlEncodeVsFoundation", section: "summary",
                    label: "URL encoding, worse input: ours / Foundation", value: worst))
            report.targets.append(
                TargetCheck(
                    id: "urlEncodeVsFoundation", label: "URL encoding vs addingPercentEncoding (worse input)",
                    measured: worst.median, threshold: Targets.urlVsFoundation, unit: "×"))
        }
        if let r = report.ratio("decodeVsMemcpy") {
            report.ratios.removeAll { $0.id == "decodeVsMemcpy" }
            report.ratios.append(
                Ratio(
                    id: "decodeVsMemcpy", section: "summary", label: "decode + canonicalize / byte copy",
                    value: r.value, isFraction: true))
        }
        if let f = report.figure("runner.inProcess") {
            report.targets.append(
                TargetCheck(
                    id: "runnerInProcess", label: "conformance runner in process",
                    measured: f.itemsPerSecond.median, threshold: Targets.runnerInProcess, unit: "cases/s"))
        }
        if let f = report.figure("runner.adapter") {
            report.targets.append(
                TargetCheck(
                    id: "runnerAdapter", label: "conformance runner through the adapter",
                    measured: f.itemsPerSecond.median, threshold: Targets.runnerAdapter, unit: "cases/s"))
        }
        if let f = report.figure("explore.adapter") {
            report.targets.append(
                TargetCheck(
                    id: "exploreAdapter", label: "explorer through the adapter",
                    measured: f.itemsPerSecond.median, threshold: Targets.exploreAdapter, unit: "cases/s"))
        }
    }

    // MARK: Environment

    /// CPU model, core count and OS, for the report (the load of other processes is not known).
    public static var machineDescription: String {
        var cpu = "unknown CPU"
        if let info = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
            let line = info.split(separator: "\n").first(where: { $0.hasPrefix("model name") }),
            let colon = line.firstIndex(of: ":")
        {
            cpu = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let os = ProcessInfo.processInfo.operatingSystemVersionString
        return "\(cpu), \(cores) cores, \(os)"
    }

    /// The directory holding the package: the first of the current directory, the executable's directory and
    /// their parents that has a `Package.swift` and a `Sources/stc` directory.
    public static func locatePackageRoot(executable: String?) -> String? {
        var starts = [FileManager.default.currentDirectoryPath]
        if let executable { starts.append((executable as NSString).deletingLastPathComponent) }
        for start in starts {
            var directory = URL(fileURLWithPath: start).standardizedFileURL
            for _ in 0..<8 {
                let path = directory.path
                if FileManager.default.fileExists(atPath: path + "/Package.swift"),
                    FileManager.default.fileExists(atPath: path + "/Sources/stc")
                {
                    return path
                }
                let parent = directory.deletingLastPathComponent()
                if parent.path == path { break }
                directory = parent
            }
        }
        return nil
    }

    /// The running executable's path: `/proc/self/exe` where there is one, else `argv[0]` made absolute.
    public static func runningExecutable() -> String? {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"),
            FileManager.default.isExecutableFile(atPath: path)
        {
            return path
        }
        guard let first = CommandLine.arguments.first, !first.isEmpty else { return nil }
        let path = first.hasPrefix("/") ? first : FileManager.default.currentDirectoryPath + "/" + first
        let standardized = URL(fileURLWithPath: path).standardizedFileURL.path
        return FileManager.default.isExecutableFile(atPath: standardized) ? standardized : nil
    }
}
