import Foundation
import StrictJSON
import Testing

/// Whether the workflow files can be checked here: `python3 -c 'import yaml'` works.
enum YAMLChecker {
    static let available: Bool = {
        let result = try? Subprocess.run(
            Command("python3", ["-c", "import yaml"]), stdout: .discard, stderr: .discard, timeLimit: 60)
        return result?.succeeded == true
    }()
}

/// The GitHub workflows and the ClusterFuzzLite project file cannot run here, so their files are checked: each
/// parses (`scripts/yaml-to-json.py`: PyYAML, every scalar a string, no key twice), has the shape GitHub
/// Actions needs, and says what the project needs of it (docs/FUZZING-AT-SCALE.md). Without python3 and PyYAML
/// the suite is skipped, visibly (.ci/run installs both).
@Suite(.enabled(if: YAMLChecker.available, "python3 with PyYAML not found (.ci/run installs it)"))
struct WorkflowFileTests {
    static let root = StcBinary.packageRoot

    static let workflows =
        [".github/workflows/ci.yml"]
        + ["pr", "batch", "cron"].map {
            ".github/workflows/cflite_\($0).yml"
        }

    struct ParseFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// The file as `scripts/yaml-to-json.py` reads it.
    static func parse(_ path: String) throws -> JSONValue {
        let script = root.appendingPathComponent("scripts/yaml-to-json.py").path
        let result = try Subprocess.run(Command("python3", [script, path], directory: root.path), timeLimit: 60)
        guard result.succeeded else {
            throw ParseFailure(description: "\(path) (\(result.termination)): " + result.stderrText)
        }
        return try JSONParser.value(result.stdout)
    }

    /// Every step of every job, with the job's name.
    static func steps(_ workflow: JSONValue) -> [(job: String, step: JSONValue)] {
        guard case .object(let jobs)? = workflow["jobs"] else { return [] }
        return jobs.sorted { $0.key < $1.key }.flatMap { name, job in
            (job["steps"]?.arrayValue ?? []).map { (name, $0) }
        }
    }

    static func uses(_ step: JSONValue, _ action: String) -> Bool {
        step["uses"]?.stringValue?.hasPrefix(action + "@") == true
    }

    @Test(arguments: workflows)
    func parsesAndHasTheShapeOfAWorkflow(path: String) throws {
        let workflow = try Self.parse(path)
        #expect(workflow["name"]?.stringValue?.isEmpty == false, "\(path): no name")
        #expect(workflow["on"]?.objectValue?.isEmpty == false, "\(path): no trigger under on:")
        guard case .object(let jobs)? = workflow["jobs"], !jobs.isEmpty else {
            Issue.record("\(path): no jobs")
            return
        }
        for (name, job) in jobs {
            #expect(job["runs-on"]?.stringValue?.isEmpty == false, "\(path): job \(name) has no runs-on")
            let steps = job["steps"]?.arrayValue ?? []
            #expect(!steps.isEmpty, "\(path): job \(name) has no steps")
            for step in steps {
                let kinds = ["uses", "run"].filter { step[$0] != nil }
                #expect(kinds.count == 1, "\(path): a step of \(name) needs one of uses: and run:, has \(kinds)")
                if let action = step["uses"]?.stringValue {
                    #expect(action.contains("@"), "\(path): \(action) names no version")
                }
            }
        }
    }

    /// The ClusterFuzzLite steps build the Swift project with each sanitizer the run step runs.
    @Test(arguments: workflows.filter { $0.contains("cflite_") })
    func clusterFuzzLiteStepsBuildSwiftForTheirSanitizer(path: String) throws {
        let workflow = try Self.parse(path)
        let all = Self.steps(workflow)
        let builds = all.filter { Self.uses($0.step, "google/clusterfuzzlite/actions/build_fuzzers") }
        let runs = all.filter { Self.uses($0.step, "google/clusterfuzzlite/actions/run_fuzzers") }
        #expect(!builds.isEmpty && builds.count == runs.count, "\(path): each job builds, then runs")
        for (job, build) in builds {
            #expect(build["with"]?["language"]?.stringValue == "swift", "\(path): \(job) builds no Swift project")
            let sanitizer = build["with"]?["sanitizer"]?.stringValue
            let run = runs.first { $0.job == job }?.step
            #expect(run?["with"]?["sanitizer"]?.stringValue == sanitizer, "\(path): \(job) runs another sanitizer")
            #expect(run?["with"]?["github-token"]?.stringValue == "${{ secrets.GITHUB_TOKEN }}")
            #expect(Int(run?["with"]?["fuzz-seconds"]?.stringValue ?? "") != nil, "\(path): \(job): fuzz-seconds")
        }
    }

    @Test func prFuzzingRunsTheChangeWithASanForAFewMinutesAndReportsSARIF() throws {
        let workflow = try Self.parse(".github/workflows/cflite_pr.yml")
        #expect(workflow["on"]?["pull_request"] != nil)
        let run = Self.steps(workflow).first { Self.uses($0.step, "google/clusterfuzzlite/actions/run_fuzzers") }?
            .step["with"]
        #expect(run?["mode"]?.stringValue == "code-change")
        #expect(run?["sanitizer"]?.stringValue == "address")
        #expect(run?["output-sarif"]?.stringValue == "true")
        let seconds = Int(run?["fuzz-seconds"]?.stringValue ?? "") ?? 0
        #expect((60...600).contains(seconds), "a few minutes, not \(seconds) s")
        #expect(Self.steps(workflow).contains { Self.uses($0.step, "github/codeql-action/upload-sarif") })
    }

    @Test func batchPruningAndCoverageRunOnASchedule() throws {
        for (path, modes) in [
            (".github/workflows/cflite_batch.yml", ["batch"]),
            (".github/workflows/cflite_cron.yml", ["prune", "coverage"]),
        ] {
            let workflow = try Self.parse(path)
            #expect(workflow["on"]?["schedule"]?.arrayValue?.first?["cron"]?.stringValue != nil, "\(path): no cron")
            let found = Self.steps(workflow).compactMap { $0.step["with"]?["mode"]?.stringValue }
            #expect(found.sorted() == modes.sorted(), "\(path): modes \(found)")
        }
        let coverage = Self.steps(try Self.parse(".github/workflows/cflite_cron.yml")).filter { $0.job == "Coverage" }
        #expect(coverage.allSatisfy { $0.step["with"]?["sanitizer"]?.stringValue == "coverage" })
    }

    @Test func ciRunsDotCIRunOnLinuxAndSwiftTestOnMacOS() throws {
        let workflow = try Self.parse(".github/workflows/ci.yml")
        let runs = Self.steps(workflow).compactMap { entry in entry.step["run"]?.stringValue.map { (entry.job, $0) } }
        let jobs = workflow["jobs"]
        #expect(runs.contains { $0.1.contains("bash .ci/run") && $0.0 == "linux" })
        #expect(jobs?["linux"]?["container"]?.stringValue?.hasPrefix("swift:") == true)
        #expect(runs.contains { $0.1.contains("swift test") && $0.0 == "macos" })
        #expect(jobs?["macos"]?["runs-on"]?.stringValue?.hasPrefix("macos") == true)
    }

    /// ClusterFuzzLite reads `language` and `base_os_version`; the Dockerfile's builder image must be that OS's.
    @Test func theProjectFileAndTheBuilderImageAgree() throws {
        let project = try Self.parse(".clusterfuzzlite/project.yaml")
        #expect(project["language"]?.stringValue == "swift")
        let os = project["base_os_version"]?.stringValue ?? "legacy"
        let dockerfile = try String(
            contentsOf: Self.root.appendingPathComponent(".clusterfuzzlite/Dockerfile"), encoding: .utf8)
        let from = dockerfile.split(separator: "\n").first { $0.hasPrefix("FROM ") }.map(String.init) ?? ""
        #expect(from == "FROM gcr.io/oss-fuzz-base/base-builder-swift" + (os == "legacy" ? "" : ":\(os)"), "\(from)")
        #expect(dockerfile.contains("COPY .clusterfuzzlite/build.sh $SRC/"))
    }

    /// The checker itself: a key given twice and a tab in the indentation are errors.
    @Test func theCheckerRefusesDuplicateKeysAndTabs() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stc-yaml-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for (name, text) in [("twice.yml", "on: push\non: pull_request\n"), ("tab.yml", "jobs:\n\tbuild: {}\n")] {
            let file = directory.appendingPathComponent(name)
            try Data(text.utf8).write(to: file)
            #expect(throws: ParseFailure.self) { try Self.parse(file.path) }
        }
    }
}
