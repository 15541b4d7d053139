import PropertyTesting
import Testing

/// Records a property run's report as a Swift Testing issue when the property did not pass.
///
/// Why here: the PropertyTesting library does not link `Testing` (it is also linked into the `stc` executable),
/// so the bridge lives with the tests, once.
///
/// ```swift
/// expectPasses(PropertyRunner.check("reverse-twice", gen) { $0.reversed().reversed() == $0 }.result)
/// ```
public func expectPasses(_ result: PropertyResult, sourceLocation: SourceLocation = #_sourceLocation) {
    if let report = result.issue {
        Issue.record(Comment(rawValue: report), sourceLocation: sourceLocation)
    }
}
