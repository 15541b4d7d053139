import PropertyTesting
import ScreenTimeReference

// Stores, policies and activities over small token universes (4 apps, 3 categories, 4 web domains by default),
// so that an activity's token and category often appear in the settings and shrunk counterexamples read as
// `app0`, `cat1`, `web2`.

/// The sizes of the token universes shield generators draw from.
public struct ShieldUniverse: Sendable, Hashable {
    public var applications: Int
    public var categories: Int
    public var webDomains: Int
    public init(applications: Int = 4, categories: Int = 3, webDomains: Int = 4) {
        self.applications = applications
        self.categories = categories
        self.webDomains = webDomains
    }
    public static let small = ShieldUniverse()
}

/// The shield generators as straight code: each reads exactly the choices the combinator recipe it replaces
/// would read (`CollectionLength` is `array(count:)`'s rule, `IntegerChoice` is `Gen.int(in:)`), so the same bytes
/// give the same scenario, but nothing is built per case and nothing is called through a closure tree. (Under
/// ASan every heap allocation is costly; building the recipe on every call was most of the `shield` target.)
/// The recipes, for reading:
///
///     tokens     = universeToken(kind).array(count: 0...3).map(Set.init)
///     policy     = oneOf(constant(nil), constant(.none), tokens.map(.all), zip(categoryTokens, tokens).map(.specific))
///     settings   = applications: tokens.optional(0.7), applicationCategories: policy,
///                  webDomains: tokens.optional(0.7), webDomainCategories: policy
///     activity   = oneOf(zip(appToken, categoryToken).map(.application), zip(webToken, categoryToken).map(.webDomain))
///     scenario   = settings.array(count: stores), then activity
///
/// A test (`ShieldGeneratorTests`) checks value and choices against these recipes written with combinators.
struct ShieldDraw: Sendable {
    let application: IntegerChoice<Int>
    let category: IntegerChoice<Int>
    let webDomain: IntegerChoice<Int>

    init(_ universe: ShieldUniverse) {
        application = Self.indexChoice(universe.applications)
        category = Self.indexChoice(universe.categories)
        webDomain = Self.indexChoice(universe.webDomains)
    }

    static let small = ShieldDraw(.small)
    static func of(_ universe: ShieldUniverse) -> ShieldDraw { universe == .small ? small : ShieldDraw(universe) }

    /// `Gen<Int>.int(in: 0...(n - 1))` over the first `n` universe tokens (`universeToken`).
    static func indexChoice(_ universe: Int) -> IntegerChoice<Int> {
        IntegerChoice(in: 0...(Swift.max(1, Swift.min(universe, TokenUniverse.size)) - 1))
    }

    static let setLength = CollectionLength(0...3)
    static let present = 0.7

    static let applications = TokenPalette(TokenUniverse.applicationTokens)
    static let categories = TokenPalette(TokenUniverse.categoryTokens)
    static let webDomains = TokenPalette(TokenUniverse.webDomainTokens)

    func applicationToken(_ source: ChoiceSource) -> ApplicationToken {
        TokenUniverse.applicationTokens[application.draw(from: source)]
    }
    func categoryToken(_ source: ChoiceSource) -> ActivityCategoryToken {
        TokenUniverse.categoryTokens[category.draw(from: source)]
    }
    func webDomainToken(_ source: ChoiceSource) -> WebDomainToken {
        TokenUniverse.webDomainTokens[webDomain.draw(from: source)]
    }

    /// `universeTokens(count: 0...3)`: the indices first (at most three), then the set: made once when every index
    /// is among the palette's first tokens (always, over the small universe), else built at its final size.
    static func tokens<Kind: TokenKind>(
        _ palette: TokenPalette<Kind>, _ index: IntegerChoice<Int>, _ source: ChoiceSource
    ) -> Set<Token<Kind>> {
        var picked = (0, 0, 0)
        var count = 0
        var mask = 0
        while setLength.wantsAnother(after: count, from: source) {
            let i = index.draw(from: source)
            switch count {
            case 0: picked.0 = i
            case 1: picked.1 = i
            default: picked.2 = i
            }
            count += 1
            mask |= i < TokenPalette<Kind>.subsetWidth ? 1 << i : -1
        }
        if mask >= 0 { return palette.subsets[mask] }
        let table = palette.tokens
        var set = Set<Token<Kind>>(minimumCapacity: count)
        set.insert(table[picked.0])
        if count > 1 { set.insert(table[picked.1]) }
        if count > 2 { set.insert(table[picked.2]) }
        return set
    }

    static func policy<Member: TokenKind>(
        _ palette: TokenPalette<Member>, _ members: IntegerChoice<Int>, categories: IntegerChoice<Int>,
        _ source: ChoiceSource
    ) -> ShieldSettings.ActivityCategoryPolicy<Member>? {
        switch source.draw(upTo: 3) {
        case 0: return nil
        case 1: return ShieldSettings.ActivityCategoryPolicy<Member>.none
        case 2: return .all(except: tokens(palette, members, source))
        default:
            let named = tokens(Self.categories, categories, source)
            return .specific(named, except: tokens(palette, members, source))
        }
    }

    func settings(_ source: ChoiceSource) -> ShieldSettings {
        let applications =
            source.drawBool(probability: Self.present) ? Self.tokens(Self.applications, application, source) : nil
        let applicationCategories = Self.policy(Self.applications, application, categories: category, source)
        let webDomains =
            source.drawBool(probability: Self.present) ? Self.tokens(Self.webDomains, webDomain, source) : nil
        let webDomainCategories = Self.policy(Self.webDomains, webDomain, categories: category, source)
        return ShieldSettings(
            applications: applications, applicationCategories: applicationCategories,
            webDomains: webDomains, webDomainCategories: webDomainCategories)
    }

    func activity(_ source: ChoiceSource) -> ShieldActivity {
        if source.draw(upTo: 1) == 0 {
            let token = applicationToken(source)
            return .application(token, category: categoryToken(source))
        }
        let token = webDomainToken(source)
        return .webDomain(token, category: categoryToken(source))
    }

    func stores(_ length: CollectionLength, _ source: ChoiceSource) -> [ShieldSettings] {
        var stores: [ShieldSettings] = []
        stores.reserveCapacity(Swift.min(length.maxCount, 8))
        while length.wantsAnother(after: stores.count, from: source) { stores.append(settings(source)) }
        return stores
    }

    func scenario(_ length: CollectionLength, _ source: ChoiceSource) -> ShieldScenario {
        let stores = stores(length, source)
        return ShieldScenario(stores: stores, activity: activity(source))
    }

    func edit(shielding: Bool, _ source: ChoiceSource) -> ShieldEdit {
        if shielding {
            switch source.draw(upTo: 3) {
            case 0: return .addApplication(applicationToken(source))
            case 1: return .addWebDomain(webDomainToken(source))
            case 2: return .addApplicationCategory(categoryToken(source))
            default: return .addWebDomainCategory(categoryToken(source))
            }
        }
        return source.draw(upTo: 1) == 0
            ? .addApplicationException(applicationToken(source)) : .addWebDomainException(webDomainToken(source))
    }
}

/// The universe tokens of one kind, and every set of the first ``subsetWidth`` of them, by bitmask (bit `i` for
/// token `i`): the sets generators draw most are made once, so drawing one hashes and allocates nothing.
struct TokenPalette<Kind: TokenKind>: Sendable {
    static var subsetWidth: Int { 8 }
    let tokens: [Token<Kind>]
    let subsets: [Set<Token<Kind>>]

    init(_ tokens: [Token<Kind>]) {
        self.tokens = tokens
        let width = Swift.min(Self.subsetWidth, tokens.count)
        subsets = (0..<(1 << Self.subsetWidth)).map { mask in
            Set((0..<width).filter { mask & (1 << $0) != 0 }.map { tokens[$0] })
        }
    }
}

extension Gen {
    /// A category policy: `nil` first, then `.none`, `.all(except:)`, `.specific(_, except:)`.
    public static func categoryPolicy<Member: TokenKind>(
        _ member: Member.Type, _ universe: ShieldUniverse, members: Int
    ) -> Gen<ShieldSettings.ActivityCategoryPolicy<Member>?>
    where Value == ShieldSettings.ActivityCategoryPolicy<Member>? {
        let palette = TokenPalette((0..<TokenUniverse.size).map { TokenUniverse.token($0, Member.self) })
        let memberIndex = ShieldDraw.indexChoice(members)
        let categoryIndex = ShieldDraw.indexChoice(universe.categories)
        return Gen { source in ShieldDraw.policy(palette, memberIndex, categories: categoryIndex, source) }
    }
}

extension Gen where Value == ShieldSettings {
    /// One store's settings: each member `nil`, empty or a few universe tokens.
    public static func shieldSettings(_ universe: ShieldUniverse = .small) -> Gen<ShieldSettings> {
        let draw = ShieldDraw.of(universe)
        return Gen { source in draw.settings(source) }
    }
}

extension Gen where Value == ShieldActivity {
    /// An app launch or a web visit, with its category.
    public static func shieldActivity(_ universe: ShieldUniverse = .small) -> Gen<ShieldActivity> {
        let draw = ShieldDraw.of(universe)
        return Gen { source in draw.activity(source) }
    }
}

/// Several stores and one activity.
public struct ShieldScenario: Sendable, CustomStringConvertible {
    public init(stores: [ShieldSettings], activity: ShieldActivity) {
        self.stores = stores
        self.activity = activity
    }
    public var stores: [ShieldSettings]
    public var activity: ShieldActivity
    public var description: String {
        let stores =
            stores.isEmpty
            ? "  (no stores)"
            : stores.enumerated().map { "  store \($0.offset): \(ShieldDescription.settings($0.element))" }.joined(
                separator: "\n")
        return "activity \(ShieldDescription.activity(activity))\n\(stores)"
    }
}

extension Gen where Value == ShieldScenario {
    public static func shieldScenario(_ universe: ShieldUniverse = .small, stores: ClosedRange<Int> = 0...3) -> Gen<
        ShieldScenario
    > {
        let draw = ShieldDraw.of(universe)
        let length = CollectionLength(stores)
        return Gen<ShieldScenario> { source in draw.scenario(length, source) }
    }
}

/// One change to a store's settings, for the monotonicity properties.
public enum ShieldEdit: Sendable, Hashable, CustomStringConvertible {
    case addApplication(ApplicationToken)
    case addWebDomain(WebDomainToken)
    case addApplicationCategory(ActivityCategoryToken)
    case addWebDomainCategory(ActivityCategoryToken)
    case addApplicationException(ApplicationToken)
    case addWebDomainException(WebDomainToken)

    /// Whether the edit may only add shields (token lists and category sets) rather than exempt (except).
    public var isShielding: Bool {
        switch self {
        case .addApplication, .addWebDomain, .addApplicationCategory, .addWebDomainCategory: return true
        case .addApplicationException, .addWebDomainException: return false
        }
    }

    public var description: String {
        switch self {
        case .addApplication(let t): return "add \(TokenUniverse.label(t)) to applications"
        case .addWebDomain(let t): return "add \(TokenUniverse.label(t)) to webDomains"
        case .addApplicationCategory(let t): return "add \(TokenUniverse.label(t)) to applicationCategories"
        case .addWebDomainCategory(let t): return "add \(TokenUniverse.label(t)) to webDomainCategories"
        case .addApplicationException(let t): return "add \(TokenUniverse.label(t)) to applicationCategories.except"
        case .addWebDomainException(let t): return "add \(TokenUniverse.label(t)) to webDomainCategories.except"
        }
    }

    /// Applies the edit. Adding a category to a `nil`/`.none` policy makes it `.specific([c])`; adding an
    /// exception to a `nil`/`.none` policy leaves it alone (there is nothing to exempt from).
    public func apply(to settings: inout ShieldSettings) {
        switch self {
        case .addApplication(let t): settings.applications = Self.inserting(t, into: settings.applications)
        case .addWebDomain(let t): settings.webDomains = Self.inserting(t, into: settings.webDomains)
        case .addApplicationCategory(let c):
            settings.applicationCategories = Self.addCategory(c, to: settings.applicationCategories)
        case .addWebDomainCategory(let c):
            settings.webDomainCategories = Self.addCategory(c, to: settings.webDomainCategories)
        case .addApplicationException(let t):
            settings.applicationCategories = Self.addException(t, to: settings.applicationCategories)
        case .addWebDomainException(let t):
            settings.webDomainCategories = Self.addException(t, to: settings.webDomainCategories)
        }
    }

    static func addCategory<M>(_ c: ActivityCategoryToken, to policy: ShieldSettings.ActivityCategoryPolicy<M>?)
        -> ShieldSettings.ActivityCategoryPolicy<M>?
    {
        switch policy {
        case nil, .some(.none): return .specific([c])
        case .some(.all(let except)): return .all(except: except)
        case .some(.specific(let cats, let except)): return .specific(inserting(c, into: cats), except: except)
        }
    }

    static func addException<M>(_ t: Token<M>, to policy: ShieldSettings.ActivityCategoryPolicy<M>?) -> ShieldSettings
        .ActivityCategoryPolicy<M>?
    {
        switch policy {
        case nil, .some(.none): return policy
        case .some(.all(let except)): return .all(except: inserting(t, into: except))
        case .some(.specific(let cats, let except)): return .specific(cats, except: inserting(t, into: except))
        }
    }

    /// `(set ?? []).union([token])`, without the one-element array and second set.
    static func inserting<K>(_ token: Token<K>, into set: Set<Token<K>>?) -> Set<Token<K>> {
        var set = set ?? []
        set.insert(token)
        return set
    }
}

extension Gen where Value == ShieldEdit {
    public static func shieldEdit(_ universe: ShieldUniverse = .small, shielding: Bool) -> Gen<ShieldEdit> {
        let draw = ShieldDraw.of(universe)
        return Gen { source in draw.edit(shielding: shielding, source) }
    }
}

/// Readable descriptions of shield values (universe labels instead of base64).
public enum ShieldDescription {
    public static func activity(_ activity: ShieldActivity) -> String {
        switch activity {
        case .application(let t, let c): return "launch \(TokenUniverse.label(t)) in \(TokenUniverse.label(c))"
        case .webDomain(let t, let c): return "visit \(TokenUniverse.label(t)) in \(TokenUniverse.label(c))"
        }
    }

    public static func policy<M>(_ policy: ShieldSettings.ActivityCategoryPolicy<M>?) -> String {
        switch policy {
        case nil: return "nil"
        case .some(.none): return ".none"
        case .some(.all(let except)): return ".all(except: \(TokenUniverse.labels(except)))"
        case .some(.specific(let cats, let except)):
            return ".specific(\(TokenUniverse.labels(cats)), except: \(TokenUniverse.labels(except)))"
        }
    }

    public static func settings(_ s: ShieldSettings) -> String {
        "applications \(TokenUniverse.labels(s.applications)), applicationCategories \(policy(s.applicationCategories)), "
            + "webDomains \(TokenUniverse.labels(s.webDomains)), webDomainCategories \(policy(s.webDomainCategories))"
    }

    public static func verdict(_ result: Result<ShieldVerdict, ShieldLimitExceeded>) -> String {
        switch result {
        case .failure(let error): return "limitExceeded(\(error.set.rawValue))"
        case .success(.allowed): return "allowed"
        case .success(.shielded(let reason)):
            return reason.category.map { "shielded(\(reason.name), \(TokenUniverse.label($0)))" }
                ?? "shielded(\(reason.name))"
        }
    }
}
