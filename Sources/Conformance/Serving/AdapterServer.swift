import StrictJSON

/// Serves an operation table over the adapter protocol (`SPEC.md` §5): one JSON request per line in,
/// one JSON response per line out, in order.
///
/// - `{"id", "op", "input"}` → `{"id", "output"}`, `{"id", "error"}` or `{"id", "unsupported": true}`;
/// - a line that is not a JSON object, or an object without a string `op` → `{"id": null, "error": "protocol"}`
///   (the `id` is echoed when the object has one);
/// - a line longer than the line limit (``maximumLineLength`` by default) → `protocol`, and the rest of that line
///   is skipped.
/// The server never stops on bad input; it ends at end of input. A trailing `\r` is ignored.
public struct AdapterServer {
    /// The longest request line served (64 MiB): far beyond the 1 MiB selection limit, so that
    /// `tooLarge` is tested through the operation, not cut off by the transport.
    public static let maximumLineLength = 64 << 20

    let perform: (String, JSONValue) -> OperationOutcome
    let lineLimit: Int
    var pending: [UInt8] = []
    var discarding = false

    /// A server answering with `perform` (by default the reference's ``OperationTable``).
    ///
    /// - Parameters:
    ///   - lineLimit: The longest request line answered; a longer one is a protocol error.
    ///   - perform: Answers one request: the operation's wire name and its input.
    public init(
        lineLimit: Int = AdapterServer.maximumLineLength,
        perform: @escaping (String, JSONValue) -> OperationOutcome = OperationTable.perform
    ) {
        self.lineLimit = lineLimit
        self.perform = perform
    }

    /// Answers one request line (without its newline); returns the response line (without newline).
    ///
    /// - Parameter line: The request line's bytes.
    /// - Returns: The response line's bytes.
    public func respond(toLine line: ArraySlice<UInt8>) -> [UInt8] {
        line.withUnsafeBufferPointer { respond(toBytes: $0) }
    }

    /// ``respond(toLine:)`` for bytes in place (a fork server's shared buffer).
    func respond(toBytes line: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var line = line
        if line.last == 0x0D { line = UnsafeBufferPointer(rebasing: line.dropLast()) }
        let request: JSONValue
        do {
            request = try JSONParser.value(line)
        } catch {
            return Self.response(id: .null, ["error": "protocol"])
        }
        guard case .object(let members) = request else { return Self.response(id: .null, ["error": "protocol"]) }
        let id = members["id"] ?? .null
        guard case .string(let op)? = members["op"] else { return Self.response(id: id, ["error": "protocol"]) }
        return Self.response(id: id, perform(op, members["input"] ?? .null))
    }

    static func response(id: JSONValue, _ body: [String: JSONValue]) -> [UInt8] {
        var members = body
        members["id"] = id
        return JSONWriter.bytes(.object(members))
    }

    /// The response to an answered request, written directly in the bytes ``response(id:_:)`` gives (keys in
    /// code-point order: `error` < `id` < `output` < `unsupported`), without building an object to sort.
    static func response(id: JSONValue, _ outcome: OperationOutcome) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(64)
        switch outcome {
        case .output(let output):
            out.append(contentsOf: #"{"id":"#.utf8)
            JSONWriter.write(id, into: &out)
            out.append(contentsOf: #","output":"#.utf8)
            JSONWriter.write(output, into: &out)
        case .error(let code):
            out.append(contentsOf: #"{"error":"#.utf8)
            JSONWriter.writeString(code, into: &out)
            out.append(contentsOf: #","id":"#.utf8)
            JSONWriter.write(id, into: &out)
        case .unsupported:
            out.append(contentsOf: #"{"id":"#.utf8)
            JSONWriter.write(id, into: &out)
            out.append(contentsOf: #","unsupported":true"#.utf8)
        }
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// Feeds bytes read from the input; calls `emit` with each complete response line (newline included).
    ///
    /// - Parameters:
    ///   - bytes: The bytes just read.
    ///   - emit: Called with each response line.
    public mutating func feed(_ bytes: UnsafeBufferPointer<UInt8>, emit: ([UInt8]) -> Void) {
        var start = 0
        for i in 0..<bytes.count where bytes[i] == 0x0A {
            finishLine(with: UnsafeBufferPointer(rebasing: bytes[start..<i]), emit: emit)
            start = i + 1
        }
        append(UnsafeBufferPointer(rebasing: bytes[start..<bytes.count]), emit: emit)
    }

    /// Call at end of input: answers a last line that had no newline.
    ///
    /// - Parameter emit: Called with the last response line, if any.
    public mutating func finish(emit: ([UInt8]) -> Void) {
        if discarding || !pending.isEmpty { finishLine(with: UnsafeBufferPointer(start: nil, count: 0), emit: emit) }
    }

    private mutating func append(_ bytes: UnsafeBufferPointer<UInt8>, emit: ([UInt8]) -> Void) {
        guard !discarding else { return }
        if pending.count + bytes.count > lineLimit {
            discarding = true
            pending = []
            return
        }
        pending.append(contentsOf: bytes)
    }

    private mutating func finishLine(with tail: UnsafeBufferPointer<UInt8>, emit: ([UInt8]) -> Void) {
        append(tail, emit: emit)
        var response: [UInt8]
        if discarding {
            response = Self.response(id: .null, ["error": "protocol"])
        } else {
            response = respond(toLine: pending[...])
        }
        response.append(0x0A)
        emit(response)
        pending.removeAll(keepingCapacity: pending.count < 1 << 20)
        discarding = false
    }
}
