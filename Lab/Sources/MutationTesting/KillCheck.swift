import Foundation

/// What can kill a mutant: the shipped vectors (`stc conformance` of the schema build) or one suite of the fast
/// tests, with what the clean run learned about it (its time, and which mutants it reaches).
public struct Killer: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case vectors
        /// A Swift Testing suite by its id prefix, `ScreenTimeReferenceTests.Base64Tests`.
        case suite(String)
    }
    public var kind: Kind
    public var cleanSeconds: Double
    public var reached: Set<Int>

    public var name: String {
        switch kind {
        case .vectors: return "vectors"
        case .suite(let id): return id
        }
    }
}

/// The fast suites: the test targets that exercise the reference, without the slow end-to-end ones.
///
/// Rules: every suite of ``modules`` except ``excluded``. Left out, with the reason:
/// - `StcTests`: end-to-end, runs the built `stc` (and for some cases `swift build`), minutes;
/// - `ExplorationTests`: judge an implementation against the reference; with a mutant on, the judge and the
///   judged are the same mutated reference, so a difference cannot show, and the suites take 15 s;
/// - `PropertyTestingTests`, `MutationTestingTests`: the property engine and this tool, no reference code;
/// - `ConformanceTests.AdapterProcessTests` (10 s of adapters that crash and hang on purpose),
///   `FuzzTargetTests.FuzzTargetListTests` and `FuzzTargetTests.PackageGraphTests` (they read the package
///   manifest): they test the runner, the fuzz setup and the package, not the reference.
public enum FastSuites {
    public static let modules: Set<String> = [
        "StrictJSONTests", "ScreenTimeReferenceTests", "ScreenTimePropertiesTests", "ConformanceTests",
        "FuzzTargetTests",
    ]
    public static let excluded: Set<String> = [
        "ConformanceTests.AdapterProcessTests", "FuzzTargetTests.FuzzTargetListTests",
        "FuzzTargetTests.PackageGraphTests",
    ]

    /// The fast suites among the test ids a test bundle lists (`Module.Suite/test()`), sorted.
    public static func select(fromTestIDs ids: [String]) -> [String] {
        var suites: Set<String> = []
        for id in ids {
            let suite = String(id.prefix { $0 != "/" })
            let module = String(suite.prefix { $0 != "." })
            guard suite.contains("."), modules.contains(module), !excluded.contains(suite) else { continue }
            suites.insert(suite)
        }
        return suites.sorted()
    }

    /// A Swift Testing `--filter` for exactly these suites.
    public static func filter(_ suites: [String]) -> String {
        let escaped = suites.map { $0.replacingOccurrences(of: ".", with: "\\.") }
        return "^(" + escaped.joined(separator: "|") + ")/"
    }
}

/// Runs the clean program and the mutants against the killers.
///
/// Rules:
/// - the clean run (no mutant on) runs the vectors once and each fast suite in a process of its own, each
///   recording which switches it reaches; each must pass, or nothing can be judged;
/// - a mutant is checked only by the killers that reach it: first the vectors (cheap, they kill most), then, if it
///   survived them, all the suites that reach it in one process;
/// - a run may take 3× its clean time plus 5 s (the suites' clean times are added up); past that it is killed
///   and the mutant is a timeout;
/// - a run that fails or crashes catches the mutant; one that exits with ``SchemaRuntime/unviableExitStatus``
///   makes it unviable; a mutant no killer reaches is not covered.
struct KillCheck: Sendable {
    let copyDirectory: String
    let binPath: String
    let workDirectory: String
    let environment: [String: String]

    static let timeoutFactor = 3.0
    static let timeoutSlack = 5.0

    var stc: String { binPath + "/stc" }

    func testBundle() throws(MutationError) -> String {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: binPath)) ?? []
        guard let bundle = names.sorted().first(where: { $0.hasSuffix(".xctest") }) else {
            throw .cleanRunFailed(what: "no test bundle (*.xctest) in \(binPath)", log: binPath)
        }
        return binPath + "/" + bundle
    }

    func environment(mutant: Int, coverage: String? = nil) -> [String: String] {
        var env = environment
        env["STC_MUTANT"] = String(mutant)
        env["SWIFT_BACKTRACE"] = "enable=no"
        if let coverage { env["STC_MUTANT_COVERAGE"] = coverage } else { env["STC_MUTANT_COVERAGE"] = nil }
        return env
    }

    func command(for kinds: [Killer.Kind], bundle: String) -> (String, [String]) {
        if kinds == [.vectors] { return (stc, ["conformance", "--quiet"]) }
        let suites = kinds.compactMap { kind -> String? in
            if case .suite(let id) = kind { return id }
            return nil
        }
        return (bundle, ["--testing-library", "swift-testing", "--filter", FastSuites.filter(suites)])
    }

    /// The fast suites the test bundle has.
    func suites(bundle: String) throws(MutationError) -> [String] {
        let log = workDirectory + "/logs/list-tests.log"
        let outcome: ChildRun.Outcome
        do {
            outcome = try ChildRun.run(
                bundle, ["--testing-library", "swift-testing", "--list-tests"], in: copyDirectory,
                environment: environment(mutant: 0), log: log, timeout: 300)
        } catch {
            throw .spawn(error.description)
        }
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        guard outcome.succeeded else { throw .cleanRunFailed(what: "listing the tests", log: log) }
        return FastSuites.select(fromTestIDs: text.split(separator: "\n").map(String.init))
    }

    /// The clean run of one killer: its time and what it reaches; a failure is a ``MutationError``.
    func clean(_ kind: Killer.Kind, bundle: String, index: Int) throws(MutationError) -> Killer {
        let coverage = workDirectory + "/coverage/\(index)"
        try? FileManager.default.removeItem(atPath: coverage)
        try? FileManager.default.createDirectory(atPath: coverage, withIntermediateDirectories: true)
        let (program, arguments) = command(for: [kind], bundle: bundle)
        let log = workDirectory + "/logs/clean-\(index).log"
        let outcome: ChildRun.Outcome
        do {
            outcome = try ChildRun.run(
                program, arguments, in: copyDirectory, environment: environment(mutant: 0, coverage: coverage),
                log: log, timeout: 1800)
        } catch {
            throw .spawn(error.description)
        }
        guard outcome.succeeded else {
            let name = Killer(kind: kind, cleanSeconds: 0, reached: []).name
            throw .cleanRunFailed(what: "\(name) did not pass (\(outcome.end))", log: log)
        }
        var reached: Set<Int> = []
        for file in (try? FileManager.default.contentsOfDirectory(atPath: coverage)) ?? [] {
            let text = (try? String(contentsOfFile: coverage + "/" + file, encoding: .utf8)) ?? ""
            for line in text.split(separator: "\n") { if let n = Int(line) { reached.insert(n) } }
        }
        return Killer(kind: kind, cleanSeconds: outcome.seconds, reached: reached)
    }

    /// What happened to mutant `number`, and which killer decided it.
    func judge(_ number: Int, killers: [Killer], bundle: String) throws(MutationError) -> (Verdict, String?) {
        let reaching = killers.filter { $0.reached.contains(number) }
        guard !reaching.isEmpty else { return (.notCovered, nil) }
        var groups: [[Killer]] = []
        if let vectors = reaching.first(where: { $0.kind == .vectors }) { groups.append([vectors]) }
        let suites = reaching.filter { $0.kind != .vectors }
        if !suites.isEmpty { groups.append(suites) }
        for group in groups {
            let (program, arguments) = command(for: group.map(\.kind), bundle: bundle)
            let limit = Self.timeoutFactor * group.map(\.cleanSeconds).reduce(0, +) + Self.timeoutSlack
            let log = workDirectory + "/logs/mutant-\(number).log"
            let outcome: ChildRun.Outcome
            do {
                outcome = try ChildRun.run(
                    program, arguments, in: copyDirectory, environment: environment(mutant: number), log: log,
                    timeout: limit)
            } catch {
                throw .spawn(error.description)
            }
            let by = group.count == 1 ? group[0].name : "\(group.count) suites"
            switch outcome.end {
            case .exited(0): continue
            case .exited(SchemaRuntime.unviableExitStatus):
                try? FileManager.default.removeItem(atPath: log)
                return (.unviable, by)
            case .timedOut:
                try? FileManager.default.removeItem(atPath: log)
                return (.timeout, by)
            default:
                try? FileManager.default.removeItem(atPath: log)
                return (.caught, by)
            }
        }
        try? FileManager.default.removeItem(atPath: workDirectory + "/logs/mutant-\(number).log")
        return (.missed, nil)
    }
}
