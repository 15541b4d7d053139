import Foundation

/// What a mutation run is asked to do.
public struct MutationOptions: Sendable {
    /// The package whose reference is mutated (the directory of its `Package.swift`).
    public var packageRoot: String
    /// Mutants judged at once (each in its own processes).
    public var jobs = 2
    /// A fixed sample of the mutants, for CI: checks that the machinery works (see ``MutationRun``).
    public var quick = false
    /// Judge only this many of the covered mutants, chosen by the hash of their ids (see ``MutationRun``).
    public var sample: Int?
    /// Only mutants of these modules (`StrictJSON`), of files whose path (`Sources/StrictJSON/JSONWriter.swift`)
    /// starts with one of these, or with these ids; empty: all.
    public var filters: [String] = []
    /// The list of equivalent mutants; `nil`: ``EquivalentMutants/defaultPath`` in the package, if it exists.
    public var equivalentsFile: String?
    /// The score the run is held to.
    public var threshold = 0.9
    /// Where the copy, its build, logs and caches go; `nil`: `.build/mutation` in the package.
    public var workDirectory: String?

    public init(packageRoot: String) { self.packageRoot = packageRoot }
}

/// How far a run is, for a progress line.
public struct MutationProgress: Sendable, CustomStringConvertible {
    public var message: String
    /// Mutants judged, of how many, and what they came to so far.
    public var done = 0
    public var total = 0
    public var caught = 0
    public var missed = 0
    public var etaSeconds: Double?
    /// The phase's last line: a terminal keeps it.
    public var final = false

    public var description: String {
        guard total > 0 else { return message }
        let eta = etaSeconds.map { String(format: ", ETA %.0f s", $0) } ?? ""
        return "\(message) \(done)/\(total): \(caught) caught, \(missed) missed\(eta)"
    }
}

/// A mutation run over the reference: find the mutants, build them into one schema build, run the clean
/// program to learn what reaches what, judge each covered mutant, report.
///
/// Rules (and the reasons in `docs/MUTATION-TESTING.md`):
/// - the reference is ``referenceModules``; every mutant of it is in the build, whatever `filters` say, so
///   that a filtered or quick run reuses the full run's build;
/// - `quick`: four covered mutants per module (the smallest ids, so the sample is fixed while the code is) and
///   a canary: the `negate-condition` mutant with the smallest id among those the vectors reach. A quick run
///   passes when the clean run passes, the canary is caught and no sampled survivor is unhandled;
/// - `sample: n`: the `n` covered mutants whose stable ids have the smallest FNV-1a hashes: a deterministic
///   sample spread over every file and operator, the same in every run while the code is, for machines where
///   judging every mutant takes too long. Its unviable count is the sample's share of all unviable mutants;
/// - a full or sampled run passes when the score is at least `threshold` and every survivor is argued
///   equivalent; a filtered one when every survivor is.
///
/// ```swift
/// var options = MutationOptions(packageRoot: root)
/// options.quick = true
/// let report = try MutationRun(options).run { print($0) }
/// ```
public struct MutationRun: Sendable {
    public static let referenceModules = [
        "StrictJSON", "ScreenTimeSelection", "ScreenTimeEncoding", "ScreenTimeReference",
    ]

    public let options: MutationOptions

    public init(_ options: MutationOptions) { self.options = options }

    var workDirectory: String { options.workDirectory ?? options.packageRoot + "/.build/mutation" }

    /// The reference's sources: relative path → text, sorted by path.
    func sources() throws(MutationError) -> [(String, String)] {
        let copy = WorkCopy(packageRoot: options.packageRoot, directory: workDirectory + "/package")
        let files = try copy.packageFiles().filter { file in
            file.hasSuffix(".swift") && Self.referenceModules.contains(MutantFinder.module(ofFile: file))
        }
        guard !files.isEmpty else { throw .io("no sources of the reference under \(options.packageRoot)/Sources") }
        return try files.map { file throws(MutationError) in
            guard let data = FileManager.default.contents(atPath: options.packageRoot + "/" + file) else {
                throw .io("cannot read \(options.packageRoot)/\(file)")
            }
            return (file, String(decoding: data, as: UTF8.self))
        }
    }

    /// Every mutant of the reference, in file and source order.
    public func allMutants() throws(MutationError) -> [Mutant] {
        try mutants(of: sources())
    }

    func mutants(of sources: [(String, String)]) throws(MutationError) -> [Mutant] {
        var result: [Mutant] = []
        for (file, text) in sources {
            do {
                result += try MutantFinder.mutants(in: text, file: file)
            } catch {
                throw .lexer(file: file, error)
            }
        }
        return result
    }

    /// Whether `mutant` is selected by the filters: any of them names its module or is a prefix of its path or
    /// its id.
    public func selects(_ mutant: Mutant) -> Bool {
        options.filters.isEmpty || options.filters.contains { Self.selects($0, mutant) }
    }

    static func selects(_ filter: String, _ mutant: Mutant) -> Bool {
        filter == mutant.module || mutant.id.hasPrefix(filter)  // the id starts with the path
    }

    /// The mutants the filters select (what `--list` prints), after checking the filters and the equivalent
    /// list against all of them.
    public func selectedMutants() throws(MutationError) -> [Mutant] {
        let all = try allMutants()
        try checkFilters(all)
        _ = try equivalents().checked(against: all)
        return all.filter(selects)
    }

    /// The equivalent list the options name.
    public func equivalents() throws(MutationError) -> EquivalentMutants {
        if let file = options.equivalentsFile { return try EquivalentMutants.load(file, required: true) }
        return try EquivalentMutants.load(options.packageRoot + "/" + EquivalentMutants.defaultPath)
    }

    /// Runs it all; progress lines go to `progress` (from worker threads, one at a time).
    public func run(progress report: @escaping @Sendable (MutationProgress) -> Void) throws(MutationError)
        -> MutationRunReport
    {
        let gate = Locked(())
        let progress: @Sendable (MutationProgress) -> Void = { line in gate.update { _ in report(line) } }
        let start = ContinuousClock.now
        let sources = try sources()
        let mutants = try mutants(of: sources)
        let equivalents = try equivalents().checked(against: mutants)
        try checkFilters(mutants)
        progress(MutationProgress(message: "\(mutants.count) mutants in \(sources.count) files of the reference"))
        for directory in ["logs", "coverage", "package"] {
            try? FileManager.default.createDirectory(
                atPath: workDirectory + "/" + directory, withIntermediateDirectories: true)
        }
        let copy = WorkCopy(packageRoot: options.packageRoot, directory: workDirectory + "/package")
        let built = try SchemaBuild(copy: copy, workDirectory: workDirectory).build(
            mutants, sources: Dictionary(uniqueKeysWithValues: sources)
        ) { progress(MutationProgress(message: $0, final: true)) }

        var environment = ProcessInfo.processInfo.environment
        let shared = (options.packageRoot as NSString).deletingLastPathComponent + "/shared"
        if environment["STC_SHARED_DIR"] == nil, FileManager.default.fileExists(atPath: shared) {
            environment["STC_SHARED_DIR"] = shared
        }
        let check = KillCheck(
            copyDirectory: copy.directory, binPath: built.binPath, workDirectory: workDirectory,
            environment: environment)
        let cleanStart = ContinuousClock.now
        let killers = try cleanRun(check, progress: progress)
        let cleanSeconds = ChildRun.seconds(since: cleanStart)

        var results: [Int: Verdict] = [:]
        let numberOf = Dictionary(uniqueKeysWithValues: built.viable.map { ($0.value.id, $0.key) })
        let reachedAny = killers.reduce(into: Set<Int>()) { $0.formUnion($1.reached) }
        var selected = built.viable.filter { selects($0.value) }.keys.sorted()
        var canary: Int?
        var unviable = built.unviable.map(\.0).filter(selects)
        if options.quick {
            (selected, canary) = Self.sample(selected, viable: built.viable, reached: reachedAny, killers: killers)
            unviable = []
        } else if let size = options.sample {
            let covered = selected.filter { reachedAny.contains($0) }
            selected = Self.hashSample(covered, size: size, viable: built.viable)
            // The same share of the unviable mutants, by the same hash, so the counts stay in proportion.
            let share = covered.isEmpty ? 0 : Double(selected.count) / Double(covered.count)
            unviable = Array(
                unviable.sorted { StableHash.fnv1a($0.id) < StableHash.fnv1a($1.id) }
                    .prefix(Int((Double(unviable.count) * share).rounded())))
        }
        let toJudge = selected.filter { reachedAny.contains($0) }
        for number in selected where !reachedAny.contains(number) { results[number] = .notCovered }
        let judged = try judge(toJudge, check: check, killers: killers, progress: progress)
        for (number, verdict) in judged { results[number] = verdict.0 }

        var list: [(Mutant, Verdict)] = []
        for mutant in unviable { list.append((mutant, .unviable)) }
        for number in selected { list.append((built.viable[number]!, results[number] ?? .notCovered)) }
        list.sort { ($0.0.file, $0.0.edit.start, $0.0.id) < ($1.0.file, $1.0.edit.start, $1.0.id) }
        let canaryVerdict = canary.flatMap { number in
            built.viable[number].map { (id: $0.id, verdict: results[number] ?? .notCovered) }
        }
        writeDetails(list: list, judged: judged, numberOf: numberOf, killers: killers)
        return MutationRunReport(
            results: list, equivalents: equivalents, quick: options.quick, sample: options.sample,
            filters: options.filters,
            threshold: options.threshold, canary: canaryVerdict, seconds: ChildRun.seconds(since: start),
            buildSeconds: built.seconds, cleanRunSeconds: cleanSeconds)
    }

    /// Every filter must select some mutant: a misspelt path would otherwise give an empty, passing run.
    func checkFilters(_ mutants: [Mutant]) throws(MutationError) {
        for filter in options.filters where !mutants.contains(where: { Self.selects(filter, $0) }) {
            throw .noMutantSelected(filter: filter)
        }
    }

    /// The `size` mutants of `numbers` whose ids hash lowest, in number order.
    static func hashSample(_ numbers: [Int], size: Int, viable: [Int: Mutant]) -> [Int] {
        numbers.sorted { StableHash.fnv1a(viable[$0]!.id) < StableHash.fnv1a(viable[$1]!.id) }.prefix(size).sorted()
    }

    /// The quick sample: four reached mutants per module with the smallest ids, and the canary.
    static func sample(
        _ selected: [Int], viable: [Int: Mutant], reached: Set<Int>, killers: [Killer]
    ) -> ([Int], Int?) {
        let covered = selected.filter { reached.contains($0) }.sorted { viable[$0]!.id < viable[$1]!.id }
        var picked: [Int] = []
        for module in referenceModules {
            picked += covered.filter { viable[$0]!.module == module }.prefix(4)
        }
        let vectors = killers.first { $0.kind == .vectors }?.reached ?? []
        let canary = covered.first { viable[$0]!.mutationOperator == .negateCondition && vectors.contains($0) }
        if let canary, !picked.contains(canary) { picked.append(canary) }
        return (picked.sorted(), canary)
    }

    func cleanRun(_ check: KillCheck, progress: @escaping @Sendable (MutationProgress) -> Void) throws(MutationError)
        -> [Killer]
    {
        let bundle = try check.testBundle()
        let suites = try check.suites(bundle: bundle)
        let kinds: [Killer.Kind] = [.vectors] + suites.map { .suite($0) }
        let results = Locked<[Int: Result<Killer, MutationError>]>([:])
        let count = Locked(0)
        parallel(kinds.count, jobs: options.jobs) { index in
            let result: Result<Killer, MutationError>
            do throws(MutationError) {
                result = .success(try check.clean(kinds[index], bundle: bundle, index: index))
            } catch {
                result = .failure(error)
            }
            results.update { $0[index] = result }
            let done = count.update { value -> Int in
                value += 1
                return value
            }
            progress(MutationProgress(message: "clean run: \(done)/\(kinds.count) (vectors and fast suites)"))
        }
        var killers: [Killer] = []
        for index in kinds.indices {
            switch results.value[index]! {
            case .success(let killer): killers.append(killer)
            case .failure(let error): throw error
            }
        }
        return killers
    }

    func judge(
        _ numbers: [Int], check: KillCheck, killers: [Killer], progress: @escaping @Sendable (MutationProgress) -> Void
    ) throws(MutationError) -> [Int: (Verdict, String?)] {
        let bundle = try check.testBundle()
        let results = Locked<[Int: (Verdict, String?)]>([:])
        let failure = Locked<MutationError?>(nil)
        let tally = Locked((done: 0, caught: 0, missed: 0))
        let start = ContinuousClock.now
        parallel(numbers.count, jobs: options.jobs) { index in
            guard failure.value == nil else { return }
            let number = numbers[index]
            do throws(MutationError) {
                let verdict = try check.judge(number, killers: killers, bundle: bundle)
                results.update { $0[number] = verdict }
                let now = tally.update { t -> (done: Int, caught: Int, missed: Int) in
                    t.done += 1
                    if verdict.0 == .caught || verdict.0 == .timeout { t.caught += 1 }
                    if verdict.0 == .missed { t.missed += 1 }
                    return t
                }
                let elapsed = ChildRun.seconds(since: start)
                progress(
                    MutationProgress(
                        message: "mutants", done: now.done, total: numbers.count, caught: now.caught,
                        missed: now.missed,
                        etaSeconds: elapsed / Double(now.done) * Double(numbers.count - now.done),
                        final: now.done == numbers.count))
            } catch {
                failure.update { $0 = $0 ?? error }
            }
        }
        if let error = failure.value { throw error }
        return results.value
    }

    /// Every judged mutant with its verdict and killer, and every killer with its clean time and how many
    /// mutants it reaches, for a person looking into a run: `results.tsv` and `killers.tsv` in the work directory.
    func writeDetails(
        list: [(Mutant, Verdict)], judged: [Int: (Verdict, String?)], numberOf: [String: Int], killers: [Killer]
    ) {
        var lines = ["verdict\tkiller\tid\tline\toperator\toriginal\treplacement"]
        for (mutant, verdict) in list {
            let by = numberOf[mutant.id].flatMap { judged[$0]?.1 } ?? ""
            lines.append(
                "\(verdict.rawValue)\t\(by)\t\(mutant.id)\t\(mutant.line)\t\(mutant.mutationOperator.rawValue)\t"
                    + "\(mutant.original)\t\(mutant.replacement)")
        }
        try? Data((lines.joined(separator: "\n") + "\n").utf8).write(
            to: URL(fileURLWithPath: workDirectory + "/results.tsv"), options: .atomic)
        var killerLines = ["killer\tcleanSeconds\treached"]
        for killer in killers {
            killerLines.append(
                "\(killer.name)\t" + String(format: "%.2f", killer.cleanSeconds) + "\t\(killer.reached.count)")
        }
        try? Data((killerLines.joined(separator: "\n") + "\n").utf8).write(
            to: URL(fileURLWithPath: workDirectory + "/killers.tsv"), options: .atomic)
    }
}

/// `body(0…count-1)` on `jobs` threads, each taking the next index when it is free.
func parallel(_ count: Int, jobs: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let next = Locked(0)
    let group = DispatchGroup()
    for _ in 0..<max(1, min(jobs, count)) {
        group.enter()
        Thread.detachNewThread {
            while true {
                let index = next.update { value -> Int in
                    value += 1
                    return value - 1
                }
                guard index < count else { break }
                body(index)
            }
            group.leave()
        }
    }
    group.wait()
}

/// A value behind a lock.
final class Locked<Value>: @unchecked Sendable {
    private var stored: Value
    private let lock = NSLock()

    init(_ value: Value) { stored = value }

    var value: Value {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }

    @discardableResult
    func update<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&stored)
    }
}
