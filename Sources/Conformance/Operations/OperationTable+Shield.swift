import ScreenTimeReference
import StrictJSON

extension OperationTable {
    /// `shield.evaluate` (`SPEC.md` §5): the verdict for one activity over a list of store settings, read and
    /// written through ``ShieldWire``.
    static var shieldOperations: [Operation] {
        [
            Operation(
                name: "shield.evaluate",
                summary: "Verdict for an activity over several stores' shield settings (SPEC §2)"
            ) { input in
                let stores = try ShieldWire.stores(input)
                let (activity, categoryID) = try ShieldWire.activity(try input.reader("activity"))
                let verdict = try ShieldEvaluation.evaluate(activity, stores: stores)
                return ShieldWire.json(verdict, activity: activity, categoryID: categoryID)
            }
        ]
    }
}

extension ShieldLimitExceeded: CodedError {
    /// `limitExceeded` (`SPEC.md` §5).
    public var code: String { "limitExceeded" }
}

/// The wire shapes of `shield.evaluate` (`SPEC.md` §5): the members read from an input, and the output written
/// from a verdict. The reference's operation and the testing kit's typed closures read and write through these
/// functions.
///
/// Tokens are short readable ids (`"app:mail"`); an id maps to the token whose bytes are the id's UTF-8, so the
/// kind comes from where the id stands, never from its prefix (`"app:x"` as a category is a category token).
///
/// Choices for absent members (the spec does not name them):
/// - a settings member (`applications`, `applicationCategories`, `webDomains`, `webDomainCategories`) that is
///   absent or `null` is `nil` (not set), which shields nothing, like iOS's default;
/// - a policy's `except` that is absent or `null` is the empty set (iOS's default argument `except: []`);
/// - a `specific` policy must have `categories` (an array); every other shape is `badInput`;
/// - repeated ids in an array collapse (set semantics), and limits count distinct tokens;
/// - unknown members are ignored, as Swift's synthesized `Decodable` does;
/// - `activity` needs `kind` (`application` or `webDomain`), `token` and `category`, all strings.
///
/// Paths for error messages (`stores[0].applications[2]`) are built only when an error is thrown: they are
/// autoclosures, so a well-formed input pays for none of them.
///
/// ```swift
/// let stores = try ShieldWire.stores(input)                                 // [ShieldSettings]
/// let (activity, _) = try ShieldWire.activity(try input.reader("activity"))
/// ShieldWire.json(try ShieldEvaluation.evaluate(activity, stores: stores))  // {"verdict": "allowed"}
/// ```
public enum ShieldWire {
    /// The input member `stores`: one ``ShieldSettings`` per element, in order (the shapes above); a malformed
    /// element is ``BadInput`` naming its path (`stores[1].applications[2]`).
    ///
    /// - Parameter input: The request's input.
    /// - Returns: The stores' settings, in order.
    /// - Throws: ``BadInput`` for a missing member or a malformed store.
    public static func stores(_ input: InputReader) throws -> [ShieldSettings] {
        let elements = try input.array("stores")
        var stores: [ShieldSettings] = []
        stores.reserveCapacity(elements.count)
        for index in elements.indices {
            stores.append(try settings(elements[index], at: "stores[\(index)]"))
        }
        return stores
    }

    static func token<Kind: TokenKind>(_ id: String) -> Token<Kind> { Token(utf8Of: id) }

    static func id<Kind: TokenKind>(_ token: Token<Kind>) -> String { String(decoding: token.bytes, as: UTF8.self) }

    static func tokenSet<Kind: TokenKind>(_ value: JSONValue, at path: @autoclosure () -> String) throws -> Set<
        Token<Kind>
    > {
        guard case .array(let elements) = value else { throw BadInput("\(path()) is \(value.typeName), not an array") }
        var tokens = Set<Token<Kind>>(minimumCapacity: elements.count)
        for index in elements.indices {
            guard case .string(let id) = elements[index] else {
                throw BadInput("\(path())[\(index)] is \(elements[index].typeName), not a string")
            }
            tokens.insert(token(id))
        }
        return tokens
    }

    /// Absent or `null` → `nil`; otherwise an array of ids.
    static func optionalTokenSet<Kind: TokenKind>(
        _ value: JSONValue?, at path: @autoclosure () -> String
    ) throws -> Set<Token<Kind>>? {
        guard let value, !value.isNull else { return nil }
        return try tokenSet(value, at: path())
    }

    static func policy<Member: TokenKind>(
        _ value: JSONValue?, at path: @autoclosure () -> String
    ) throws -> ShieldSettings.ActivityCategoryPolicy<Member>? {
        guard let value, !value.isNull else { return nil }
        guard case .object(let members) = value else { throw BadInput("\(path()) is \(value.typeName), not an object") }
        // The three members in one pass over the object (see `settings`).
        var policyValue: JSONValue?
        var exceptValue: JSONValue?
        var categoriesValue: JSONValue?
        for (key, member) in members {
            switch key {
            case "policy": policyValue = member
            case "except": exceptValue = member
            case "categories": categoriesValue = member
            default: continue
            }
        }
        guard case .string(let kind)? = policyValue else {
            throw BadInput("\(path()).policy is missing or not a string")
        }
        let except: Set<Token<Member>> = try optionalTokenSet(exceptValue, at: path() + ".except") ?? []
        switch kind {
        case "none":
            return ShieldSettings.ActivityCategoryPolicy<Member>.none
        case "all":
            return .all(except: except)
        case "specific":
            guard let categories = categoriesValue else { throw BadInput("\(path()) lacks \"categories\"") }
            return .specific(try tokenSet(categories, at: path() + ".categories"), except: except)
        default:
            throw BadInput("\(path()).policy is \"\(kind)\", not none, all or specific")
        }
    }

    static func settings(_ value: JSONValue, at path: @autoclosure () -> String) throws -> ShieldSettings {
        guard case .object(let members) = value else { throw BadInput("\(path()) is \(value.typeName), not an object") }
        // The four members in one pass over the object: a store names one or two of them, and looking each one up
        // compared it with every member. Matching is by String `==`, as a lookup's; the members are then read in
        // a fixed order, so the first error is the same as before.
        var applications: JSONValue?
        var applicationCategories: JSONValue?
        var webDomains: JSONValue?
        var webDomainCategories: JSONValue?
        for (key, member) in members {
            switch key {
            case "applications": applications = member
            case "applicationCategories": applicationCategories = member
            case "webDomains": webDomains = member
            case "webDomainCategories": webDomainCategories = member
            default: continue
            }
        }
        return ShieldSettings(
            applications: try optionalTokenSet(applications, at: path() + ".applications"),
            applicationCategories: try policy(applicationCategories, at: path() + ".applicationCategories"),
            webDomains: try optionalTokenSet(webDomains, at: path() + ".webDomains"),
            webDomainCategories: try policy(webDomainCategories, at: path() + ".webDomainCategories")
        )
    }

    /// The input member `activity` (given as its reader): the activity, and the id its category token was made
    /// from (for ``json(_:activity:categoryID:)``).
    ///
    /// - Parameter reader: A reader over the member `activity`.
    /// - Returns: The activity and its category token's id.
    /// - Throws: ``BadInput`` for a malformed activity.
    public static func activity(_ reader: InputReader) throws -> (activity: ShieldActivity, categoryID: String) {
        let kind = try reader.string("kind")
        let id = try reader.string("token")
        let categoryID = try reader.string("category")
        let category: ActivityCategoryToken = token(categoryID)
        switch kind {
        case "application": return (.application(token(id), category: category), categoryID)
        case "webDomain": return (.webDomain(token(id), category: category), categoryID)
        default: throw BadInput("activity.kind is \"\(kind)\", not application or webDomain")
        }
    }

    /// The output of `shield.evaluate`: `{"verdict":"allowed"}` or `{"verdict":"shielded","reason":…}`, plus
    /// `category` (the category token's id) for category reasons.
    ///
    /// - Parameter verdict: The verdict.
    /// - Returns: The output object.
    public static func json(_ verdict: ShieldVerdict) -> JSONValue {
        guard let reason = verdict.reason else { return .object(["verdict": "allowed"]) }
        guard let category = reason.category else {
            return .object(["verdict": "shielded", "reason": .string(reason.name)])
        }
        return .object(["verdict": "shielded", "reason": .string(reason.name), "category": .string(id(category))])
    }

    /// The same object as ``json(_:)``, made more cheaply for a verdict on `activity`, whose category token was
    /// made from `categoryID`: the answers without a category are built once, and a category reason that names
    /// the activity's own category (it always does, `ShieldEvaluation` rule 5) is written with `categoryID`
    /// instead of decoding the token's bytes back. Any other category is decoded as in ``json(_:)``.
    static func json(_ verdict: ShieldVerdict, activity: ShieldActivity, categoryID: String) -> JSONValue {
        guard let reason = verdict.reason else { return allowedOutput }
        switch reason {
        case .application: return shieldedByApplicationOutput
        case .webDomain: return shieldedByWebDomainOutput
        case .applicationCategory(let category), .webDomainCategory(let category):
            let name = category == activity.category ? categoryID : id(category)
            return categoryOutput.object([shieldedValue, .string(reason.name), .string(name)])
        }
    }

    private static let shieldedValue: JSONValue = "shielded"
    private static let allowedOutput: JSONValue = .object(["verdict": "allowed"])
    private static let shieldedByApplicationOutput: JSONValue =
        .object(["verdict": shieldedValue, "reason": .string(ShieldReason.application.name)])
    private static let shieldedByWebDomainOutput: JSONValue =
        .object(["verdict": shieldedValue, "reason": .string(ShieldReason.webDomain.name)])
    private static let categoryOutput = OutputShape("verdict", "reason", "category")
}
