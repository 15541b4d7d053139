import StrictJSON

/// What a vector expects (`SPEC.md` §5): an error code, or an output object whose named members must match.
public enum Expectation: Sendable, Hashable {
    /// The actual answer must be this error code.
    case error(String)
    /// Every member named here must be JSON-equal in the actual output; members not named are not compared.
    case output([String: JSONValue])

    /// The expectation as it is written in a suite file: `{"error": CODE}` or `{"output": {…}}`.
    public var json: JSONValue {
        switch self {
        case .error(let code): return .object(["error": .string(code)])
        case .output(let members): return .object(["output": .object(members)])
        }
    }
}

/// One conformance vector: a request, what the reference says it must answer, and where that rule comes from.
public struct ConformanceCase: Sendable, Hashable {
    /// Unique across every loaded suite; never holds whitespace, control characters or `#`
    /// (so that it can stand alone on a line of an expected-failures file).
    public var id: String
    /// The name of the suite that holds the case.
    public var suite: String
    /// The operation's wire name, such as `selection.decode`.
    public var op: String
    /// The operation's input, sent as is (it may deliberately be malformed, to test `badInput`).
    public var input: JSONValue
    public var expect: Expectation
    public var tags: [String]
    /// Where the rule comes from (`SPEC §1`, an Apple doc page, a device capture …).
    public var source: String

    /// `true` when the case rests on an **assumption** (tag `assumption`): reports show these apart.
    public var isAssumption: Bool { tags.contains("assumption") }

    /// A case; each argument is the property of the same name.
    ///
    /// - Parameters:
    ///   - id: Unique across every loaded suite.
    ///   - suite: The suite that holds the case.
    ///   - op: The operation's wire name.
    ///   - input: The operation's input.
    ///   - expect: What the reference answers.
    ///   - tags: Tags, such as `field-bug-4` or `assumption`.
    ///   - source: Where the rule comes from.
    public init(
        id: String, suite: String, op: String, input: JSONValue, expect: Expectation, tags: [String] = [],
        source: String = ""
    ) {
        self.id = id
        self.suite = suite
        self.op = op
        self.input = input
        self.expect = expect
        self.tags = tags
        self.source = source
    }
}

/// One suite file: a named list of cases.
public struct Suite: Sendable, Hashable {
    public var name: String
    public var description: String
    /// The file the suite was read from (empty for suites built in code).
    public var file: String
    public var cases: [ConformanceCase]

    /// A suite; each argument is the property of the same name.
    ///
    /// - Parameters:
    ///   - name: The suite's name.
    ///   - description: What the suite covers.
    ///   - file: The file it was read from.
    ///   - cases: Its cases, in file order.
    public init(name: String, description: String = "", file: String = "", cases: [ConformanceCase]) {
        self.name = name
        self.description = description
        self.file = file
        self.cases = cases
    }
}

extension ConformanceCase {
    /// The expectation as compact JSON text.
    var expectedText: String { expect.json.description }
}
