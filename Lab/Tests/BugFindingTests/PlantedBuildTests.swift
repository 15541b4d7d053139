import Foundation
import Testing

@testable import BugFinding

/// The plants still plant: the patch applied to a copy of the product, built (debug `stc`, as `lab bench --filter
/// bugs --quick` builds it), passes every shipped vector with no bug on and fails them with each planted bug on.
/// A plant whose site the product's code has moved away from would either not apply (PlantedBugCatalogTests) or
/// change nothing (here).
@Suite(.serialized) struct PlantedBuildTests {
    static let builds = PlantedBuilds(packageRoot: PlantedBugCatalogTests.root.path, configuration: "debug")

    /// Plants and builds once for the suite; the build is incremental after the first (minutes) and shared with
    /// the quick bug-finding run.
    static let built: Result<Void, PlantedBuilds.BuildFailure> = {
        do throws(PlantedBuilds.BuildFailure) {
            try builds.plant { print($0) }
            try builds.buildStc { print($0) }
            return .success(())
        } catch {
            return .failure(error)
        }
    }()

    func conformance(_ bug: String?) throws -> TimedProcess.Outcome {
        try TimedProcess.run(
            Self.builds.stc, ["conformance", "--quiet"],
            environment: ["SWIFT_BACKTRACE": "enable=no", "STC_PLANTED_BUG": bug ?? ""],
            directory: Self.builds.packageRoot, limit: 600)
    }

    @Test func withNoBugOnThePlantedBuildPassesEveryVector() throws {
        try Self.built.get()
        let outcome = try conformance(nil)
        #expect(outcome.status == 0 && !outcome.signaled, "\(outcome.tail())")
    }

    @Test(arguments: PlantedBugCatalog.all.map(\.name))
    func eachPlantedBugFailsTheVectors(bug: String) throws {
        try Self.built.get()
        let outcome = try conformance(bug)
        #expect(outcome.status != 0 || outcome.signaled, "\(bug): every vector passed with the bug on")
    }
}
