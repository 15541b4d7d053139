import Foundation

/// Builds the copy of the package with every mutant switched in, dropping the mutants the compiler rejects.
///
/// Rules:
/// - mutants are numbered once, 1…n in the order they were found, and keep their numbers across rounds, so a
///   round rewrites only the files that lost a mutant and the build after it is incremental;
/// - a failed round's errors are attributed to mutants (``UnviableAttribution``); those mutants are unviable and
///   the next round builds without them. Type errors come first; errors the compiler finds only once a file type
///   checks (a missing `return`, a constant read before it is set) come in a later round;
/// - mutants found unviable before, in a file whose text has not changed since, are left out from the start
///   (`unviable.json` in the work directory), which makes a second run's build a no-op;
/// - an error no mutant explains, or more than ``maximumRounds`` rounds, fails the build.
///
/// ```swift
/// let built = try SchemaBuild(copy: copy, workDirectory: work).build(mutants, sources: texts) { print($0) }
/// ```
struct SchemaBuild {
    let copy: WorkCopy
    let workDirectory: String
    static let maximumRounds = 8

    struct Result {
        /// Number → mutant, for the mutants the build holds.
        var viable: [Int: Mutant]
        /// Mutants the compiler rejected, with the first error that did.
        var unviable: [(Mutant, String)]
        var rounds: Int
        var seconds: Double
        var binPath: String
    }

    /// The unviable mutants of earlier runs: file → (hash of its text, id → error).
    struct Cache: Codable {
        var files: [String: FileEntry] = [:]
        struct FileEntry: Codable {
            var textHash: String
            var unviable: [String: String]
        }
    }

    var cachePath: String { workDirectory + "/unviable.json" }

    func loadCache() -> Cache {
        guard let data = FileManager.default.contents(atPath: cachePath),
            let cache = try? JSONDecoder().decode(Cache.self, from: data)
        else { return Cache() }
        return cache
    }

    func saveCache(_ cache: Cache) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        guard let data = try? encoder.encode(cache) else { return }
        try? data.write(to: URL(fileURLWithPath: cachePath), options: .atomic)
    }

    func build(
        _ mutants: [Mutant], sources: [String: String], progress: (String) -> Void
    ) throws(MutationError) -> Result {
        let start = ContinuousClock.now
        guard let swift = ChildRun.which("swift") else { throw .spawn("no swift in PATH") }
        let numbered = Dictionary(uniqueKeysWithValues: mutants.enumerated().map { ($0.offset + 1, $0.element) })
        var cache = loadCache()
        var dropped: [Int: String] = [:]
        for (number, mutant) in numbered {
            guard let entry = cache.files[mutant.file], entry.textHash == Self.hash(sources[mutant.file] ?? ""),
                let message = entry.unviable[mutant.id]
            else { continue }
            dropped[number] = message
        }
        let byFile = Dictionary(grouping: numbered.keys.sorted(), by: { numbered[$0]!.file })
        var round = 0
        while true {
            round += 1
            guard round <= Self.maximumRounds else {
                throw .buildFailed(
                    errors: ["still failing after \(Self.maximumRounds) rounds"], log: logPath(round - 1))
            }
            var rewritten: [String: SchemaRewriter.RewrittenFile] = [:]
            for (file, numbers) in byFile {
                let kept = numbers.filter { dropped[$0] == nil }.map { (numbered[$0]!, $0) }
                rewritten[file] = SchemaRewriter.rewrite(
                    sources[file] ?? "", module: MutantFinder.module(ofFile: file), mutants: kept)
            }
            var replacing = rewritten.mapValues(\.text)
            replacing["Sources/\(SchemaRuntime.module)/\(SchemaRuntime.fileName)"] = SchemaRuntime.source(
                count: mutants.count)
            let written = try copy.sync(replacing: replacing)
            progress(
                "schema build, round \(round): \(numbered.count - dropped.count) mutants switched in, "
                    + "\(written) file(s) written")
            let log = logPath(round)
            let outcome: ChildRun.Outcome
            do {
                outcome = try ChildRun.run(
                    swift, ["build", "--build-tests"], in: copy.directory, log: log, timeout: nil)
            } catch {
                throw .spawn(error.description)
            }
            if outcome.succeeded { break }
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            let errors = UnviableAttribution.errors(inLog: text, root: copy.directory)
            let (unviable, unexplained) = UnviableAttribution.attribute(errors, files: rewritten, mutants: numbered)
            if !unexplained.isEmpty || unviable.isEmpty {
                let shown =
                    unexplained.isEmpty
                    ? ["the build failed without a Swift error (see the log)"]
                    : unexplained
                        .map { "\($0.file):\($0.line):\($0.column): \($0.message)" }
                throw .buildFailed(errors: shown, log: log)
            }
            for (number, error) in unviable where dropped[number] == nil {
                dropped[number] = "\(error.line):\(error.column): \(error.message)"
            }
            progress("schema build, round \(round): \(unviable.count) mutant(s) do not compile")
        }
        // Remember what did not compile, per file and text.
        var files: [String: Cache.FileEntry] = [:]
        for (number, message) in dropped {
            let mutant = numbered[number]!
            files[mutant.file, default: .init(textHash: Self.hash(sources[mutant.file] ?? ""), unviable: [:])]
                .unviable[mutant.id] = message
        }
        cache.files = files
        saveCache(cache)
        var viable = numbered
        for number in dropped.keys { viable[number] = nil }
        let unviable = dropped.keys.sorted().map { (numbered[$0]!, dropped[$0]!) }
        return Result(
            viable: viable, unviable: unviable, rounds: round, seconds: ChildRun.seconds(since: start),
            binPath: copy.directory + "/.build/debug")
    }

    func logPath(_ round: Int) -> String { workDirectory + "/logs/build-\(round).log" }

    static func hash(_ text: String) -> String { String(StableHash.fnv1a(text), radix: 16) }
}
