import StrictJSON
import ScreenTimeReference

extension OperationTable {
    /// `shield.evaluate` (`SPEC.md` §5): the verdict for one activity over a list of store settings.
    static var shieldOperations: [Operation] {
        [
            Operation(name: "shield.evaluate", summary: "Verdict for an activity over several stores' shield settings (SPEC §2)") { input in
                let elements = try input.array("stores")
                var stores: [ShieldSettings] = []
                stores.reserveCapacity(elements.count)
                for index in elements.indices {
                    stores.append(try ShieldWire.settings(elements[index], at: "stores[\(index)]"))
                }
                let activity = try ShieldWire.activity(try input.reader("activity"))
                return ShieldWire.json(try ShieldEvaluation.evaluate(activity, stores: stores))
            }
        ]
    }
}

extension ShieldLimitExceeded: CodedError {
    /// `limitExceeded` (`SPEC.md` §5).
    public var code: String { "limitExceeded" }
}

/// The wire shapes of `shield.evaluate` (`SPEC.md` §5).
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
enum ShieldWire {
    static func token<Kind: TokenKind>(_ id: String) -> Token<Kind> { Token(utf8Of: id) }

    static func id<Kind: TokenKind>(_ token: Token<Kind>) -> String { String(decoding: token.bytes, as: UTF8.self) }

    static func tokenSet<Kind: TokenKind>(_ value: JSONValue, at path: @autoclosure () -> String) throws -> Set<Token<Kind>> {
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
        guard case .string(let kind)? = InputReader.lookup(members, "policy") else { throw BadInput("\(path()).policy is missing or not a string") }
        let except: Set<Token<Member>> = try optionalTokenSet(InputReader.lookup(members, "except"), at: path() + ".except") ?? []
        switch kind {
        case "none":
            return ShieldSettings.ActivityCategoryPolicy<Member>.none
        case "all":
            return .all(except: except)
        case "specific":
            guard let categories = InputReader.lookup(members, "categories") else { throw BadInput("\(path()) lacks \"categories\"") }
            return .specific(try tokenSet(categories, at: path() + ".categories"), except: except)
        default:
            throw BadInput("\(path()).policy is \"\(kind)\", not none, all or specific")
        }
    }

    static func settings(_ value: JSONValue, at path: @autoclosure () -> String) throws -> ShieldSettings {
        guard case .object(let members) = value else { throw BadInput("\(path()) is \(value.typeName), not an object") }
        return ShieldSettings(
            applications: try optionalTokenSet(InputReader.lookup(members, "applications"), at: path() + ".applications"),
            applicationCategories: try policy(InputReader.lookup(members, "applicationCategories"), at: path() + ".applicationCategories"),
            webDomains: try optionalTokenSet(InputReader.lookup(members, "webDomains"), at: path() + ".webDomains"),
            webDomainCategories: try policy(InputReader.lookup(members, "webDomainCategories"), at: path() + ".webDomainCategories")
        )
    }

    static func activity(_ reader: InputReader) throws -> ShieldActivity {
        let kind = try reader.string("kind")
        let id = try reader.string("token")
        let category: ActivityCategoryToken = token(try reader.string("category"))
        switch kind {
        case "application": return .application(token(id), category: category)
        case "webDomain": return .webDomain(token(id), category: category)
        default: throw BadInput("activity.kind is \"\(kind)\", not application or webDomain")
        }
    }

    /// `{"verdict":"allowed"}` or `{"verdict":"shielded","reason":…}` plus `category` for category reasons.
    static func json(_ verdict: ShieldVerdict) -> JSONValue {
        guard let reason = verdict.reason else { return .object(["verdict": "allowed"]) }
        guard let category = reason.category else { return .object(["verdict": "shielded", "reason": .string(reason.name)]) }
        return .object(["verdict": "shielded", "reason": .string(reason.name), "category": .string(id(category))])
    }
}
