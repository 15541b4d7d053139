import StrictJSON

/// Turns a field report into a permanent vector: the reference computes the expectation of a new case.
///
/// A string that crashed someone's app on a device becomes, in one command, a case that every implementation
/// is held to. The expectation is whatever the reference answers now (an output or an error code), so review it:
/// the reference may be the one that is wrong.
public enum VectorAuthoring {
    public struct Request {
        public var op: String
        public var input: JSONValue
        public var id: String?
        public var tags: [String]
        public var source: String

        /// A request; each argument is the property of the same name.
        ///
        /// - Parameters:
        ///   - op: The operation's wire name.
        ///   - input: The operation's input.
        ///   - id: The case id, or `nil` for ``defaultId(suite:op:input:)``.
        ///   - tags: The case's tags.
        ///   - source: Where the case comes from.
        public init(
            op: String, input: JSONValue, id: String? = nil, tags: [String] = [], source: String = "field report"
        ) {
            self.op = op
            self.input = input
            self.id = id
            self.tags = tags
            self.source = source
        }
    }

    public enum Refusal: Error, Equatable, CustomStringConvertible {
        case unknownOperation(String, known: [String])
        case idInUse(String, suite: String)
        case invalidId(String)
        case duplicateInput(existingId: String)

        public var description: String {
            switch self {
            case .unknownOperation(let op, let known):
                return "unknown operation \"\(op)\"; operations: \(known.joined(separator: ", "))"
            case .idInUse(let id, let suite): return "the id \"\(id)\" is already used in suite \(suite)"
            case .invalidId(let id):
                return "the id \"\(id)\" must be non-empty, without whitespace, control characters or '#'"
            case .duplicateInput(let id): return "a case with the same op and input already exists: \(id)"
            }
        }
    }

    /// The new case for `suite`, checked against every case of `existing` (all loaded suites, `suite` included).
    ///
    /// - Parameters:
    ///   - request: What the case asks.
    ///   - suite: The suite it goes in.
    ///   - existing: Every loaded suite.
    ///   - perform: The reference, which computes the expectation.
    /// - Returns: The case.
    /// - Throws: ``Refusal`` when the operation is unknown, the id is invalid or taken, or the request is already a case.
    public static func makeCase(
        _ request: Request, suite: String, existing: [Suite],
        perform: (String, JSONValue) -> OperationOutcome = OperationTable.perform
    ) throws(Refusal) -> ConformanceCase {
        guard OperationTable.byName[request.op] != nil else {
            throw .unknownOperation(request.op, known: OperationTable.all.map(\.name))
        }
        for s in existing {
            for c in s.cases where c.op == request.op && c.input == request.input {
                throw .duplicateInput(existingId: c.id)
            }
        }
        let id = request.id ?? defaultId(suite: suite, op: request.op, input: request.input)
        guard isValidId(id) else { throw .invalidId(id) }
        for s in existing {
            if s.cases.contains(where: { $0.id == id }) { throw .idInUse(id, suite: s.name) }
        }
        let expect: Expectation
        switch perform(request.op, request.input) {
        case .output(.object(let members)): expect = .output(members)
        case .output(let other): expect = .output(["value": other])
        case .error(let code): expect = .error(code)
        case .unsupported: throw .unknownOperation(request.op, known: OperationTable.all.map(\.name))
        }
        var tags = request.tags
        if tags.isEmpty { tags = ["field-report"] }
        return ConformanceCase(
            id: id, suite: suite, op: request.op, input: request.input, expect: expect, tags: tags,
            source: request.source)
    }

    /// `<suite>/<op with dashes>-<8 hex digits of the input's hash>`: stable for the same input.
    ///
    /// - Parameters:
    ///   - suite: The suite's name.
    ///   - op: The operation's wire name.
    ///   - input: The case's input.
    /// - Returns: The id.
    public static func defaultId(suite: String, op: String, input: JSONValue) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in JSONWriter.bytes(input) {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        let hex = String(hash >> 32, radix: 16)
        let padded = String(repeating: "0", count: max(0, 8 - hex.count)) + hex
        return "\(suite)/\(op.replacingDots())-\(padded)"
    }

    /// Whether `id` can be a case id: not empty, with no whitespace, control character or `#`.
    ///
    /// - Parameter id: A candidate id.
    /// - Returns: `true` when it can.
    public static func isValidId(_ id: String) -> Bool {
        !id.isEmpty
            && !id.unicodeScalars.contains {
                $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F || $0 == "#"
            }
    }
}

extension String {
    fileprivate func replacingDots() -> String { String(map { $0 == "." ? "-" : $0 }) }
}
