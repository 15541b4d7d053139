import ScreenTimeReference
import StrictJSON

/// The wire shapes of `settings.evaluate` (`SPEC.md` §5.2, §9): steps that assign store members or clear a store,
/// and a query, read from an input; the answer written from a ``SettingsAnswer``. The reference's operation, the
/// testing kit's closure and the explorer's generators read and write through these functions.
///
/// Choices (`SPEC.md` §5.2, Assumption A33): an unknown member name, policy, action, query kind or restriction is
/// `badInput`; a member set to `null` is deleted; an optional string that is `null` is absent; ids are tokens as in
/// ``ShieldWire``.
///
/// ```swift
/// let request = try SettingsWire.request(input)
/// SettingsWire.json(try SettingsWire.run(request))   // {"verdict": "denied", "stores": ["strict"]}
/// ```
public enum SettingsWire {
    /// One member assignment of a step: the member and its new value (`nil` deletes it).
    public enum Assignment: Hashable, Sendable {
        case shieldApplications(Set<ApplicationToken>?)
        case shieldApplicationCategories(ShieldSettings.ActivityCategoryPolicy<Application>?)
        case shieldWebDomains(Set<WebDomainToken>?)
        case shieldWebDomainCategories(ShieldSettings.ActivityCategoryPolicy<WebDomain>?)
        case blockedByFilter(WebContentSettings.FilterPolicy?)
        case blockedApplications(Set<Application>?)
        case restriction(Restriction, RestrictionValue?)
    }

    /// What a step does to its store.
    public enum Action: Hashable, Sendable {
        case assign([Assignment])
        case clearAllSettings
    }

    /// A step: a store and what is done to it.
    public struct Step: Hashable, Sendable {
        public var store: ManagedSettingsStore.Identity
        public var action: Action
        /// A step on `store`.
        ///
        /// - Parameters:
        ///   - store: the unnamed store or a named one.
        ///   - action: assignments, or `clearAllSettings()`.
        public init(store: ManagedSettingsStore.Identity, action: Action) {
            self.store = store
            self.action = action
        }
    }

    /// A whole `settings.evaluate` input.
    public struct Request: Hashable, Sendable {
        public var steps: [Step]
        public var query: SettingsQuery
        /// Steps applied in order to fresh stores, then the query.
        ///
        /// - Parameters:
        ///   - steps: the steps, in order.
        ///   - query: what is asked afterwards.
        public init(steps: [Step], query: SettingsQuery) {
            self.steps = steps
            self.query = query
        }
    }

    /// The member names of `SPEC.md` §9.1 that a step may assign, the four `shield.*` names first.
    public static let memberNames: [String] =
        [
            "shield.applications", "shield.applicationCategories", "shield.webDomains", "shield.webDomainCategories",
            "webContent.blockedByFilter", "application.blockedApplications",
        ] + Restriction.allCases.map(\.rawValue)

    /// The input's `steps` and then its `query`.
    ///
    /// - Parameter input: the request's input.
    /// - Returns: the request.
    /// - Throws: ``BadInput`` naming the first malformed member.
    public static func request(_ input: InputReader) throws -> Request {
        let elements = try input.array("steps")
        var steps: [Step] = []
        for index in elements.indices {
            steps.append(try step(InputReader(elements[index]), at: "steps[\(index)]"))
        }
        return Request(steps: steps, query: try query(try input.reader("query")))
    }

    static func step(_ reader: InputReader, at path: String) throws -> Step {
        guard case .object = reader.value else { throw BadInput("\(path) is \(reader.value.typeName), not an object") }
        let store: ManagedSettingsStore.Identity
        switch reader.optional("store") {
        case nil, .null?: store = .unnamed
        case .string(let name)?: store = .named(.init(name))
        case let other?: throw BadInput("\(path).store is \(other.typeName), not a string")
        }
        let action = try reader.string("do")
        switch action {
        case "clearAllSettings":
            return Step(store: store, action: .clearAllSettings)
        case "assign":
            let members = try reader.object("members")
            var assignments: [Assignment] = []
            for name in members.keys.sorted() {
                guard let value = members[name] else { continue }
                assignments.append(try assignment(name, value, at: "\(path).members.\(name)"))
            }
            return Step(store: store, action: .assign(assignments))
        default:
            throw BadInput("\(path).do is \"\(action)\", not assign or clearAllSettings")
        }
    }

    static func assignment(_ name: String, _ value: JSONValue, at path: String) throws -> Assignment {
        switch name {
        case "shield.applications": return .shieldApplications(try ShieldWire.optionalTokenSet(value, at: path))
        case "shield.applicationCategories": return .shieldApplicationCategories(try ShieldWire.policy(value, at: path))
        case "shield.webDomains": return .shieldWebDomains(try ShieldWire.optionalTokenSet(value, at: path))
        case "shield.webDomainCategories": return .shieldWebDomainCategories(try ShieldWire.policy(value, at: path))
        case "webContent.blockedByFilter": return .blockedByFilter(try filterPolicy(value, at: path))
        case "application.blockedApplications": return .blockedApplications(try applications(value, at: path))
        default:
            guard let restriction = Restriction(rawValue: name) else {
                throw BadInput("\(path): \"\(name)\" is not a settings member (SPEC §9.1)")
            }
            if value.isNull { return .restriction(restriction, nil) }
            if restriction.isInteger {
                guard let number = value.intValue else { throw BadInput("\(path) is not an integer or null") }
                return .restriction(restriction, .integer(number))
            }
            guard let flag = value.boolValue else { throw BadInput("\(path) is \(value.typeName), not a boolean") }
            return .restriction(restriction, .bool(flag))
        }
    }

    static func optionalString(_ reader: InputReader, _ key: String, at path: String) throws -> String? {
        switch reader.optional(key) {
        case nil, .null?: return nil
        case .string(let text)?: return text
        case let other?: throw BadInput("\(path).\(key) is \(other.typeName), not a string")
        }
    }

    static func applications(_ value: JSONValue, at path: String) throws -> Set<Application>? {
        if value.isNull { return nil }
        guard case .array(let elements) = value else { throw BadInput("\(path) is \(value.typeName), not an array") }
        var result = Set<Application>()
        for index in elements.indices {
            let reader = InputReader(elements[index])
            let at = "\(path)[\(index)]"
            guard case .object = reader.value else {
                throw BadInput("\(at) is \(reader.value.typeName), not an object")
            }
            let token: ApplicationToken? = try optionalString(reader, "token", at: at).map(ShieldWire.token)
            result.insert(
                Application(
                    token: token, bundleIdentifier: try optionalString(reader, "bundleIdentifier", at: at),
                    localizedDisplayName: try optionalString(reader, "localizedDisplayName", at: at)))
        }
        return result
    }

    static func webDomains(_ value: JSONValue?, at path: String) throws -> Set<WebDomain> {
        guard let value, !value.isNull else { return [] }
        guard case .array(let elements) = value else { throw BadInput("\(path) is \(value.typeName), not an array") }
        var result = Set<WebDomain>()
        for index in elements.indices {
            let at = "\(path)[\(index)]"
            switch elements[index] {
            case .string(let domain):
                result.insert(WebDomain(domain: domain))
            case .object:
                let reader = InputReader(elements[index])
                let token: WebDomainToken? = try optionalString(reader, "token", at: at).map(ShieldWire.token)
                result.insert(WebDomain(token: token, domain: try optionalString(reader, "domain", at: at)))
            case let other:
                throw BadInput("\(at) is \(other.typeName), not a string or an object")
            }
        }
        return result
    }

    static func filterPolicy(_ value: JSONValue, at path: String) throws -> WebContentSettings.FilterPolicy? {
        if value.isNull { return nil }
        let reader = InputReader(value)
        guard case .object = value else { throw BadInput("\(path) is \(value.typeName), not an object") }
        let kind = try reader.string("policy")
        switch kind {
        case "none":
            return WebContentSettings.FilterPolicy.none
        case "specific":
            guard let domains = reader.optional("domains"), !domains.isNull else {
                throw BadInput("\(path) lacks \"domains\"")
            }
            return .specific(try webDomains(domains, at: path + ".domains"))
        case "all":
            return .all(except: try webDomains(reader.optional("except"), at: path + ".except"))
        case "auto":
            return .auto(
                try webDomains(reader.optional("domains"), at: path + ".domains"),
                except: try webDomains(reader.optional("except"), at: path + ".except"))
        default:
            throw BadInput("\(path).policy is \"\(kind)\", not none, specific, all or auto")
        }
    }

    /// The input member `query` (given as its reader).
    ///
    /// - Parameter reader: a reader over the member `query`.
    /// - Returns: the query.
    /// - Throws: ``BadInput`` for an unknown kind or a malformed member.
    public static func query(_ reader: InputReader) throws -> SettingsQuery {
        let kind = try reader.string("kind")
        switch kind {
        case "launch":
            let application: ApplicationToken = ShieldWire.token(try reader.string("application"))
            let bundle = try optionalString(reader, "bundleIdentifier", at: "query")
            let category: ActivityCategoryToken = ShieldWire.token(try reader.string("category"))
            return .launch(application, bundleIdentifier: bundle, category: category)
        case "removal": return .removal
        case "installation": return .installation
        case "privateBrowsing": return .privateBrowsing
        case "url": return .url(try reader.string("url"))
        case "setting":
            let name = try reader.string("name")
            guard let restriction = Restriction(rawValue: name) else {
                throw BadInput("query.name is \"\(name)\", not a restriction of SPEC §9.4")
            }
            return .setting(restriction)
        default:
            throw BadInput(
                "query.kind is \"\(kind)\", not launch, removal, installation, url, privateBrowsing or setting")
        }
    }

    /// Applies `step` to `environment` through the stores' own API, as app code would.
    ///
    /// - Parameters:
    ///   - step: the step.
    ///   - environment: where the stores live.
    public static func apply(_ step: Step, to environment: ScreenTimeEnvironment) {
        let store: ManagedSettingsStore
        switch step.store {
        case .unnamed: store = ManagedSettingsStore(environment: environment)
        case .named(let name): store = ManagedSettingsStore(named: name, environment: environment)
        }
        switch step.action {
        case .clearAllSettings:
            store.clearAllSettings()
        case .assign(let assignments):
            for assignment in assignments {
                switch assignment {
                case .shieldApplications(let value): store.shield.applications = value
                case .shieldApplicationCategories(let value): store.shield.applicationCategories = value
                case .shieldWebDomains(let value): store.shield.webDomains = value
                case .shieldWebDomainCategories(let value): store.shield.webDomainCategories = value
                case .blockedByFilter(let value): store.webContent.blockedByFilter = value
                case .blockedApplications(let value): store.application.blockedApplications = value
                case .restriction(let restriction, let value): store.modifyGroups { $0[restriction] = value }
                }
            }
        }
    }

    /// The answer to `request`: its steps applied to a fresh environment, then its query.
    ///
    /// - Parameter request: the steps and the query.
    /// - Returns: the verdict and the stores responsible.
    /// - Throws: ``ManagedSettingsError`` as ``ScreenTimeEnvironment/evaluate(_:)``.
    public static func run(_ request: Request) throws(ManagedSettingsError) -> SettingsAnswer {
        let environment = ScreenTimeEnvironment()
        for step in request.steps { apply(step, to: environment) }
        return try environment.evaluate(request.query)
    }

    /// The output of `settings.evaluate`: `verdict` (with `reason` and `category` for a shield) or `value`, and
    /// `stores`, unnamed first as `null`.
    ///
    /// - Parameter answer: the answer.
    /// - Returns: the output object.
    public static func json(_ answer: SettingsAnswer) -> JSONValue {
        var members: [String: JSONValue] = [
            "stores": .array(
                answer.stores.map { store in
                    if case .named(let name) = store { return .string(name.rawValue) }
                    return .null
                })
        ]
        switch answer.verdict {
        case .value(let value):
            switch value {
            case .bool(let flag)?: members["value"] = .bool(flag)
            case .integer(let number)?: members["value"] = .number(Double(number))
            case nil: members["value"] = .null
            }
        case .shielded(let reason):
            members["verdict"] = "shielded"
            members["reason"] = .string(reason.name)
            if let category = reason.category { members["category"] = .string(ShieldWire.id(category)) }
        default:
            members["verdict"] = .string(answer.verdict.name)
        }
        return .object(members)
    }
}
