import StrictJSON

/// The member names of an operation's output object, the same for every answer, so that each answer's object is
/// made without hashing its keys again.
///
/// A dictionary literal hashes every key (SipHash, costly even for a short key) and inserts it one by one.
/// ``object(_:)`` instead maps a prototype (the same keys, each holding its position in ``keys``) to the given
/// values with `mapValues`, which keeps the prototype's hash table as it is and hashes nothing. The result is the
/// same dictionary value as the literal `[keys[0]: values[0], keys[1]: values[1], …]`.
///
/// ```swift
/// static let decodeOutput = OutputShape("text")
/// decodeOutput.object([.string(text)])   // == .object(["text": .string(text)])
/// ```
struct OutputShape: Sendable {
    /// The member names, in the order ``object(_:)`` takes their values. Distinct.
    let keys: [String]
    /// Each key, holding its position in `keys`.
    private let prototype: [String: Int]

    /// `keys` must be distinct, as in a dictionary literal.
    init(_ keys: String...) {
        self.keys = keys
        self.prototype = Dictionary(zip(keys, keys.indices), uniquingKeysWith: { _, last in last })
    }

    /// The object whose member `keys[i]` is `values[i]`; `values` holds one value per key, in the order of ``keys``.
    func object(_ values: [JSONValue]) -> JSONValue {
        guard values.count == keys.count, prototype.count == keys.count else {
            // Not reached by the operations, which pass one value per key: built member by member instead.
            return .object(Dictionary(zip(keys, values), uniquingKeysWith: { _, last in last }))
        }
        return .object(prototype.mapValues { values[$0] })
    }
}
