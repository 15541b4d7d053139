/// An invariant that did not hold, with what is needed to understand it: what a harness body returns instead of
/// trapping, so that replay can report it and the libFuzzer shim can turn it into a crash.
///
/// ```swift
/// return HarnessFailure("canonical form is a fixed point", "second pass gave \(again)")
/// ```
public struct HarnessFailure: Error, Sendable, CustomStringConvertible {
    public var invariant: String
    public var details: String

    public init(_ invariant: String, _ details: String = "") {
        self.invariant = invariant
        self.details = details
    }

    public var description: String { details.isEmpty ? invariant : "\(invariant): \(details)" }
}
