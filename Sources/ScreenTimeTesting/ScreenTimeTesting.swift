// The testing kit for a user's own Swift code: describe the code under test as a ScreenTimeImplementation, then
// run the shipped vectors (ConformanceCheck) and generated cases (ExplorationCheck) against it inside a Swift
// Testing or XCTest test, or serve it to `stc conformance` and `stc explore` (ScreenTimeAdapter).
// `import ScreenTimeTesting` brings the reference's types under their iOS names with it.
@_exported import ScreenTimeReference
