// Model-based (stateful) testing: generate a program of commands against a pure model, run it on the
// system under test, check each step's result against the model and the invariant after every step.
//
// Commands are chosen from the model's state as the program is generated (so preconditions hold by
// construction); the program is an ordinary generated value, so shrinking deletes commands and simplifies
// their arguments through the choice sequence, and a shrunk program is regenerated against the model, so
// it is always consistent.

/// A model-based test: how to generate commands and how to check the system against the model.
public struct StateMachine<Model, System, Command>: Sendable {
    /// The model's starting state.
    public var initialModel: @Sendable () -> Model
    /// A fresh system under test (called once per case and per shrink replay).
    public var makeSystem: @Sendable () -> System
    /// The commands possible in a model state (put the simplest first: shrinking moves toward it).
    public var commands: @Sendable (Model) -> Gen<Command>
    /// Whether a command may run in a state (commands failing it are redrawn, a few times).
    public var precondition: @Sendable (Model, Command) -> Bool
    /// The model's state after a command.
    public var nextModel: @Sendable (Model, Command) -> Model {
        didSet { applyCommand = nil }  // the in-place form no longer says the same
    }
    /// The same update made in place (``init(initialModel:makeSystem:commands:precondition:applying:execute:invariant:maxCommands:)``):
    /// a model holding collections is then changed without being copied at every step.
    @usableFromInline var applyCommand: (@Sendable (inout Model, Command) -> Void)?
    /// Runs a command on the system and checks the outcome against the model state *before* the command;
    /// returns a failure message or nil. May throw (a failure).
    public var execute: @Sendable (Command, inout System, Model) throws -> String?
    /// Checked after every step against the model state *after* it; returns a failure message or nil.
    public var invariant: @Sendable (Model, System) -> String?
    /// Longest program.
    public var maxCommands: Int

    public init(
        initialModel: @escaping @Sendable () -> Model,
        makeSystem: @escaping @Sendable () -> System,
        commands: @escaping @Sendable (Model) -> Gen<Command>,
        precondition: @escaping @Sendable (Model, Command) -> Bool = { _, _ in true },
        nextModel: @escaping @Sendable (Model, Command) -> Model,
        execute: @escaping @Sendable (Command, inout System, Model) throws -> String?,
        invariant: @escaping @Sendable (Model, System) -> String? = { _, _ in nil },
        maxCommands: Int = 40
    ) {
        self.initialModel = initialModel
        self.makeSystem = makeSystem
        self.commands = commands
        self.precondition = precondition
        self.nextModel = nextModel
        self.execute = execute
        self.invariant = invariant
        self.maxCommands = maxCommands
    }

    /// A machine whose model changes in place: `applying(&model, command)` makes the model's state after the
    /// command (``nextModel`` is the same update on a copy). Otherwise as the other initializer.
    public init(
        initialModel: @escaping @Sendable () -> Model,
        makeSystem: @escaping @Sendable () -> System,
        commands: @escaping @Sendable (Model) -> Gen<Command>,
        precondition: @escaping @Sendable (Model, Command) -> Bool = { _, _ in true },
        applying: @escaping @Sendable (inout Model, Command) -> Void,
        execute: @escaping @Sendable (Command, inout System, Model) throws -> String?,
        invariant: @escaping @Sendable (Model, System) -> String? = { _, _ in nil },
        maxCommands: Int = 40
    ) {
        self.init(
            initialModel: initialModel, makeSystem: makeSystem, commands: commands, precondition: precondition,
            nextModel: { model, command in
                var next = model
                applying(&next, command)
                return next
            },
            execute: execute, invariant: invariant, maxCommands: maxCommands)
        applyCommand = applying
    }

    /// Moves `model` past `command`: in place when the machine was made with `applying:`.
    @inlinable
    func advance(_ model: inout Model, _ command: Command) {
        if let applyCommand { applyCommand(&model, command) } else { model = nextModel(model, command) }
    }

    /// Programs: command lists valid against the model. Each command is preceded by a "one more?"
    /// choice, so deleting that pair of choices deletes the command.
    @inlinable
    public var programs: Gen<[Command]> {
        let machine = self
        let average = Swift.min(Double(machine.maxCommands), 12)
        let more = average / (average + 1)
        return Gen { source in
            var model = machine.initialModel()
            var program: [Command] = []
            program.reserveCapacity(Swift.min(machine.maxCommands, 16))
            var commandStart = source.position
            while program.count < machine.maxCommands && !source.didOverrun && source.drawBool(probability: more) {
                defer { commandStart = source.position }
                let gen = machine.commands(model)
                var chosen: Command? = nil
                for _ in 0..<10 {
                    let command = gen.generate(using: source)
                    if machine.precondition(model, command) {
                        chosen = command
                        break
                    }
                    if source.didOverrun { break }
                }
                guard let command = chosen else { break }
                program.append(command)
                source.closeSpan(.element, from: commandStart)
                machine.advance(&model, command)
            }
            return program
        }
    }

    /// Runs a program on a fresh system; nil if every step matched the model, else the failure message
    /// naming the failing step.
    @inlinable
    public func failure(of program: [Command]) throws -> String? {
        var model = initialModel()
        var system = makeSystem()
        if let message = invariant(model, system) { return "invariant failed before any command: \(message)" }
        for (step, command) in program.enumerated() {
            if let message = try execute(command, &system, model) {
                return "step \(step + 1) (\(String(describing: command))): \(message)"
            }
            advance(&model, command)
            if let message = invariant(model, system) {
                return "invariant failed after step \(step + 1) (\(String(describing: command))): \(message)"
            }
        }
        return nil
    }

    /// Describes a program as numbered steps.
    public static func describe(_ program: [Command]) -> String {
        if program.isEmpty { return "(no commands)" }
        return program.enumerated().map { "\($0.offset + 1). \(String(describing: $0.element))" }.joined(
            separator: "\n")
    }

    /// Runs the state machine as a property, returning the shrunk program.
    public func check(_ name: String = "stateful", config: RunConfiguration = RunConfiguration()) -> CheckResult<
        [Command]
    > {
        PropertyRunner.check(
            name, programs, config: config, describe: StateMachine.describe, failureMessage: failure(of:))
    }

    /// The state machine as a named property.
    @inlinable
    public func property(_ name: String, summary: String = "") -> Property {
        let machine = self
        return Property(
            name, summary: summary, programs, describe: { StateMachine.describe($0) },
            failureMessage: { try machine.failure(of: $0) })
    }
}
