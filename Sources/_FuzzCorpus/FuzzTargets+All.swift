import _ActivityFuzzTargets
import _DifferentialFuzzTargets
import _EncodingFuzzTargets
@_exported import _FuzzCore
import _JSONFuzzTargets
import _SelectionFuzzTargets
import _StructuredFuzzTargets

extension FuzzTargets {
    /// Every fuzz target, in `stc fuzz list` order: each harness module's own list. A target added to one of those
    /// lists shows up here, in `stc fuzz`, in the corpus replay of `swift test` and in CI.
    public static let all: [FuzzTarget] =
        jsonTargets + selectionTargets + differentialTargets + encodingTargets + structuredTargets
        + activityTargets

    public static func named(_ name: String) -> FuzzTarget? { all.first { $0.name == name } }
}
