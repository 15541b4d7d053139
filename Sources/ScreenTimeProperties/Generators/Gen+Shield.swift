import PropertyTesting
import ScreenTimeReference

// Stores, policies and activities over small token universes (4 apps, 3 categories, 4 web domains by default),
// so that an activity's token and category often appear in the settings and shrunk counterexamples read as
// `app0`, `cat1`, `web2`.

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

extension Gen where Value == ShieldScenario {
    public static func shieldScenario(_ universe: ShieldUniverse = .small, stores: ClosedRange<Int> = 0...3) -> Gen<
        ShieldScenario
    > {
        let draw = ShieldDraw.of(universe)
        let length = CollectionLength(stores)
        return Gen<ShieldScenario> { source in draw.scenario(length, source) }
    }
}

extension Gen where Value == ShieldEdit {
    public static func shieldEdit(_ universe: ShieldUniverse = .small, shielding: Bool) -> Gen<ShieldEdit> {
        let draw = ShieldDraw.of(universe)
        return Gen { source in draw.edit(shielding: shielding, source) }
    }
}
