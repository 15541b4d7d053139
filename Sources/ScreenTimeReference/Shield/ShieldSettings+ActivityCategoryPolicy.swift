extension ShieldSettings {
    /// How a store shields by category (mirrors `ShieldSettings.ActivityCategoryPolicy<Category>`).
    ///
    /// Generic over what it applies to, as on iOS: `ActivityCategoryPolicy<Application>` for
    /// ``ShieldSettings/applicationCategories``, `ActivityCategoryPolicy<WebDomain>` for
    /// ``ShieldSettings/webDomainCategories``. The `except` tokens are of that kind.
    ///
    /// - `.specific(C, except: E)` shields an activity whose category is in `C` and whose own token is not in `E`;
    /// - `.all(except: E)` shields every activity whose token is not in `E`;
    /// - `.none` shields nothing (as does a `nil` policy).
    ///
    /// `except` exempts only from *this* policy: an application listed in ``ShieldSettings/applications`` stays
    /// shielded even when it is in `except` (see ``ShieldEvaluation``). Assumption: Apple's doc says listed apps
    /// are shielded "even if they're in the categories that you list", but not what `except` does to them.
    ///
    /// ```swift
    /// store.shield.applicationCategories = .specific(blocklist.categoryTokens, except: whitelist.applicationTokens)
    /// store.shield.webDomainCategories = .all(except: [docs])
    /// ```
    ///
    /// Source: Apple doc (ShieldSettings.ActivityCategoryPolicy).
    public enum ActivityCategoryPolicy<Member: TokenKind>: Hashable, Sendable {
        /// Shield every activity whose token is not in `except`.
        case all(except: Set<Token<Member>> = [])
        /// Shield activities whose category is in the set and whose token is not in `except`.
        case specific(Set<ActivityCategoryToken>, except: Set<Token<Member>> = [])
        /// Shield nothing by category.
        case none

        /// The categories the policy names (`.specific` only; empty otherwise). (Ours.)
        public var categories: Set<ActivityCategoryToken> {
            if case .specific(let categories, _) = self { return categories }
            return []
        }

        /// The exempted tokens (empty for `.none`). (Ours.)
        public var exceptions: Set<Token<Member>> {
            switch self {
            case .all(let except), .specific(_, let except): return except
            case .none: return []
            }
        }

        /// Whether this policy shields an activity with token `token` in category `category`. (Ours.)
        ///
        /// `isVoid` says which tokens are void (``ScreenTimeEnvironment``): a void token in the policy matches
        /// nothing, neither as a category nor as an exception.
        /// Example: `.specific([social], except: [chat]).shields(feed, in: social) == true`.
        public func shields(
            _ token: Token<Member>, in category: ActivityCategoryToken,
            isVoid: (TokenIdentity) -> Bool = { _ in false }
        ) -> Bool {
            // The except set is only looked at once the policy covers the category (each lookup hashes the token).
            func exempt(_ except: Set<Token<Member>>) -> Bool {
                except.contains(token) && !isVoid(TokenIdentity(token))
            }
            switch self {
            case .none:
                return false
            case .all(let except):
                return !exempt(except)
            case .specific(let categories, let except):
                guard categories.contains(category), !isVoid(TokenIdentity(category)) else { return false }
                return !exempt(except)
            }
        }
    }
}
