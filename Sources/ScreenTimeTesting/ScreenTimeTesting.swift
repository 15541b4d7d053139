// The testing kit for a user's own Swift code: describe the code under test as a ScreenTimeImplementation, then
// run the shipped vectors (ConformanceCheck) and generated cases (ExplorationCheck) against it inside a Swift
// Testing or XCTest test with `verify`, or serve it to `stc conformance` and `stc explore` (ScreenTimeAdapter).
//
// Rule: `import ScreenTimeTesting` is the only import a test needs. It brings the reference's types under their iOS
// names (the whole of ScreenTimeReference), and exactly the types of the engine that the kit's results hold, so a
// test can name them (`let status: CaseStatus = …`, `for finding: Finding in result.findings`). The rest of the
// engine (runners, reports, adapters) stays behind `stc`; a test that wants it imports Conformance itself.
@_exported import ScreenTimeReference

// The typed timeline and result of `activity.monitor`'s closure.
@_exported import enum Conformance.ActivityWire
@_exported import enum Conformance.Answer
@_exported import struct Conformance.CaseResult
@_exported import enum Conformance.CaseStatus
@_exported import struct Conformance.ConformanceCase
// What ConformanceCheckResult.run holds, and what ShippedSuites.load returns.
@_exported import struct Conformance.ConformanceRun
@_exported import enum Conformance.Expectation
@_exported import struct Conformance.ImplementationResult
@_exported import enum Conformance.ListedState
// The typed request of `settings.evaluate`'s closure.
@_exported import enum Conformance.SettingsWire
@_exported import struct Conformance.StatusCounts
@_exported import struct Conformance.Suite
@_exported import struct Conformance.SuiteLoadFailure
@_exported import struct Exploration.Discrepancy
// What ExplorationCheckResult holds.
@_exported import struct Exploration.ExploreResult
@_exported import struct Exploration.Finding
@_exported import struct Exploration.FindingExample
@_exported import struct Exploration.FindingGroup
// Case inputs, and the outputs of answers.
@_exported import enum StrictJSON.JSONValue
