import ScreenTimeTesting
import Testing
import XCTest

// The earlier spellings still compile and behave as before. The tests call them through `OldSpellings`, whose
// witnesses are deprecated themselves, so that using the deprecated declarations warns nowhere.

@Suite struct DeprecatedSpellingsTests {
    let old: any OldSpellings = DeprecatedSpellings()

    @Test func expectIsVerifyInSwiftTesting() {
        let result = old.expect(ConformanceCheck(operations: [.urlEncode]), .reference)
        #expect(result.passed && result.statuses.count == shippedIDs("url.encode") { _ in true }.count)
        withKnownIssue {
            _ = old.expect(ConformanceCheck(operations: [.urlEncode]), VerifyInSwiftTestingTests.lowerHex)
        }
    }

    @Test func theExplorationResultsOldPathForwards() {
        let result = ExplorationCheck(cases: 100, operations: [.urlEncode]).run(.reference, relativeTo: "")
        #expect(old.explored(result)?.cases == 100 && result.cases == 100)
    }

    @Test func lifecyclePolicyIsAuthorizationPolicy() {
        var app = old.implementation(lifecyclePolicy: ScreenTimeImplementation.reference.authorizationPolicy)
        #expect(app.supported == [.authPolicy] && app.authorizationPolicy != nil)
        #expect(old.lifecyclePolicy(of: app) != nil)
        old.clearLifecyclePolicy(of: &app)
        #expect(app.supported.isEmpty)
        app.encodeURLComponent = old.urlComponentCoding { $0 }
        #expect(app.supported == [.urlEncode])
    }
}

final class DeprecatedAssertTests: XCTestCase {
    func testAssertIsVerifyInXCTest() {
        let old: any OldSpellings = DeprecatedSpellings()
        let result = old.assert(ExplorationCheck(cases: 100, operations: [.templateRender]))
        XCTAssertTrue(result.passed)
        XCTAssertEqual(result.cases, 100)
    }
}

/// The deprecated declarations, one requirement each.
protocol OldSpellings {
    func expect(_ check: ConformanceCheck, _ implementation: ScreenTimeImplementation) -> ConformanceCheckResult
    func assert(_ check: ExplorationCheck) -> ExplorationCheckResult
    func explored(_ result: ExplorationCheckResult) -> ExploreResult?
    func implementation(lifecyclePolicy: ScreenTimeImplementation.AuthorizationPolicy?) -> ScreenTimeImplementation
    func lifecyclePolicy(of app: ScreenTimeImplementation) -> ScreenTimeImplementation.AuthorizationPolicy?
    func clearLifecyclePolicy(of app: inout ScreenTimeImplementation)
    func urlComponentCoding(_ body: @escaping @Sendable (String) -> String)
        -> ScreenTimeImplementation
        .EncodeURLComponent
}

struct DeprecatedSpellings: OldSpellings {
    @available(*, deprecated)
    func expect(_ check: ConformanceCheck, _ implementation: ScreenTimeImplementation) -> ConformanceCheckResult {
        check.expect(implementation)
    }

    @available(*, deprecated)
    func assert(_ check: ExplorationCheck) -> ExplorationCheckResult { check.assert(.reference) }

    @available(*, deprecated)
    func explored(_ result: ExplorationCheckResult) -> ExploreResult? { result.result }

    @available(*, deprecated)
    func implementation(lifecyclePolicy: ScreenTimeImplementation.AuthorizationPolicy?) -> ScreenTimeImplementation {
        let old: ScreenTimeImplementation.LifecycleHandling? = lifecyclePolicy
        return ScreenTimeImplementation(name: "old label", lifecyclePolicy: old)
    }

    @available(*, deprecated)
    func lifecyclePolicy(of app: ScreenTimeImplementation) -> ScreenTimeImplementation.AuthorizationPolicy? {
        app.lifecyclePolicy
    }

    @available(*, deprecated)
    func clearLifecyclePolicy(of app: inout ScreenTimeImplementation) { app.lifecyclePolicy = nil }

    @available(*, deprecated)
    func urlComponentCoding(_ body: @escaping @Sendable (String) -> String)
        -> ScreenTimeImplementation
        .EncodeURLComponent
    {
        let coding: ScreenTimeImplementation.URLComponentCoding = body
        return coding
    }
}
