import Conformance
import Exploration
import PropertyTesting
import StrictJSON
import Testing

@testable import ScreenTimeTesting

/// The typed closures wrapping the reference answer exactly as the reference's operation table does.
@Suite struct ReferenceThroughTheKitTests {
    @Test func theOperationsAreTheTables() {
        #expect(ScreenTimeOperation.allCases.map(\.rawValue) == OperationTable.all.map(\.name))
        #expect(ScreenTimeImplementation.reference.supported == ScreenTimeOperation.allCases)
    }

    @Test func everyShippedVectorPasses() {
        let result = ConformanceCheck().run(.reference, relativeTo: testDirectory)
        #expect(result.passed && result.issues.isEmpty, "\(result.issues.map(\.text))")
        #expect(result.statuses.count == shippedCases.count && !shippedCases.isEmpty)
        #expect(failingIDs(result).isEmpty)
        #expect(result.summary.hasPrefix("reference, shipped vectors in process: OK — "), "\(result.summary)")
    }

    /// Not only the members a vector names: the whole answer, for every shipped input and for generated ones
    /// (malformed members included), is the table's.
    @Test func everyAnswerIsTheTablesAnswer() {
        let wire = WireOperations(.reference)
        for c in shippedCases {
            #expect(wire.perform(c.op, c.input) == OperationTable.perform(c.op, input: c.input), "\(c.id)")
        }
        for operation in ExploredOperations.all {
            for seed in 0..<UInt64(300) {
                let input = operation.input.generate(seed: seed)
                let (kit, table) = (
                    wire.perform(operation.name, input), OperationTable.perform(operation.name, input: input)
                )
                #expect(kit == table, "\(operation.name) \(input)")
            }
        }
        #expect(wire.perform("no.such.op", [:]) == .unsupported)
    }

    @Test func theGeneratedCheckFindsNothing() {
        let result = ExplorationCheck(cases: 3_000, seed: 7).run(.reference, relativeTo: testDirectory)
        #expect(result.passed && result.issues.isEmpty, "\(result.issues.map(\.text))")
        #expect(result.cases == 3_000)
    }

    @Test func anImplementationWithoutClosuresRunsNothingAndSaysSo() {
        let empty = ScreenTimeImplementation(name: "empty")
        let conformance = ConformanceCheck().run(empty, relativeTo: testDirectory)
        #expect(conformance.issues.map(\.text).contains("empty: no case ran"), "\(conformance.summary)")
        #expect(conformance.summary.contains("not run (no closure): selection.decode, selection.equal"))
        let exploration = ExplorationCheck(cases: 100).run(empty, relativeTo: testDirectory)
        #expect(exploration.issues.map(\.text).contains("empty: no operation to explore in process"))
    }

    /// Operations that may trap run neither in the conformance check nor in the generated check; the summary
    /// says where they run.
    @Test func mayTrapOperationsAreLeftOutInProcess() {
        var trapping = ScreenTimeImplementation.reference
        trapping.decodeSelection = { _ in throw KitTestError.calledInProcess }
        trapping.mayTrap = [.selectionDecode]
        let conformance = ConformanceCheck().run(trapping, relativeTo: testDirectory)
        #expect(conformance.passed, "\(conformance.issues.map(\.text))")
        #expect(!conformance.statuses.keys.contains { $0.hasPrefix("selection-decode/") })
        #expect(conformance.summary.contains("not run in process (mayTrap; "))
        let exploration = ExplorationCheck(cases: 500).run(trapping, relativeTo: testDirectory)
        #expect(exploration.passed, "\(exploration.issues.map(\.text))")
        #expect(exploration.operations.contains("selection.decode") == false)
    }
}

enum KitTestError: Error {
    case calledInProcess
    case badBytes
}
