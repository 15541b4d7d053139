import PropertyTesting

/// One generated case, named by its operation and its choices and written `OP:HEX`: what a finding's replay line
/// carries, and what `stc explore --replay` and the testing kit's replay take back.
///
/// Rule: the text after the last `:` is the choices as ``Hex`` (``ChoiceSequence/bytes``); the text before it is
/// the operation's wire name. The operation's generator makes exactly the finding's minimal input from them.
///
/// ```swift
/// let replay = ReplayCase("selection.decode:0003000101")!
/// replay.operation?.input.generate(from: replay.choices)   // {"base64": "e31="}
/// ReplayCase(finding.first).text                           // "url.encode:…"
/// ```
public struct ReplayCase: Sendable, Hashable {
    /// The operation's wire name.
    public var op: String
    /// The case's choices.
    public var choices: [UInt8]

    /// The case written `OP:HEX`, or `nil` when the text has no `:` or the part after the last one is not hex.
    public init?(_ text: String) {
        guard let colon = text.lastIndex(of: ":"), let bytes = Hex.decode(String(text[text.index(after: colon)...]))
        else { return nil }
        self.op = String(text[..<colon])
        self.choices = bytes
    }

    /// The minimal case of a finding's example.
    public init(_ example: FindingExample) {
        self.op = example.minimal.op
        self.choices = example.choices
    }

    /// `OP:HEX`.
    public var text: String { "\(op):\(Hex.encode(choices))" }

    /// The operation's generator, `nil` when the explorer knows no operation of that name.
    public var operation: ExploredOperation? { ExploredOperations.named(op) }
}
