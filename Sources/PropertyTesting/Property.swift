// Named properties, so a catalog can list them and the CLI can run one by name:
// `stc check NAME --seed S --iterations N` or `stc check NAME --replay HEX`.

/// A named, runnable property (type-erased over its generator).
public struct Property: Sendable {
    public let name: String
    public let summary: String
    public let run: @Sendable (RunConfiguration) -> PropertyResult
    /// Runs the body on one fixed byte input without shrinking or saving; true = passes. For fuzz harnesses
    /// and corpus replay: any bytes are a valid case (invalid generations count as passing).
    public let holds: @Sendable ([UInt8]) -> Bool

    public init(
        name: String, summary: String,
        run: @escaping @Sendable (RunConfiguration) -> PropertyResult,
        holds: @escaping @Sendable ([UInt8]) -> Bool
    ) {
        self.name = name
        self.summary = summary
        self.run = run
        self.holds = holds
    }

    /// A property whose body returns true when it holds.
    public init<Value>(
        _ name: String,
        summary: String = "",
        _ gen: Gen<Value>,
        describe: (@Sendable (Value) -> String)? = nil,
        _ body: @escaping @Sendable (Value) throws -> Bool
    ) {
        self.init(
            name, summary: summary, gen, describe: describe,
            failureMessage: { value in
                try body(value) ? nil : "property returned false"
            })
    }

    /// A property whose body returns nil when it holds, or a message saying why not (throwing also fails;
    /// throwing `Discard` discards the case).
    public init<Value>(
        _ name: String,
        summary: String = "",
        _ gen: Gen<Value>,
        describe: (@Sendable (Value) -> String)? = nil,
        failureMessage body: @escaping @Sendable (Value) throws -> String?
    ) {
        self.name = name
        self.summary = summary
        self.run = { config in
            PropertyRunner.check(name, gen, config: config, describe: describe, failureMessage: body).result
        }
        self.holds = { bytes in
            let source = ChoiceSource(bytes: bytes, recording: false)  // nothing shrinks here
            let value = gen.generate(using: source)
            if source.isInvalid { return true }
            do { return try body(value) == nil } catch is Discard { return true } catch { return false }
        }
    }

    /// Runs with `config`.
    public func check(_ config: RunConfiguration = RunConfiguration()) -> PropertyResult {
        run(config)
    }
}

/// A list of properties addressable by name.
public struct PropertyCatalog: Sendable {
    public private(set) var properties: [Property]

    public init(_ properties: [Property] = []) {
        self.properties = properties
    }

    public mutating func add(_ property: Property) {
        properties.append(property)
    }

    public var names: [String] { properties.map(\.name) }

    public func property(named name: String) -> Property? {
        properties.first { $0.name == name }
    }

    /// Runs every property (or those whose names start with `prefix`) with the same configuration.
    public func runAll(_ config: RunConfiguration, matching prefix: String = "") -> [PropertyResult] {
        properties.filter { $0.name.hasPrefix(prefix) }.map { $0.run(config) }
    }
}
