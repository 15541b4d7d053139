#if STC_PLANTED_BUGS
    import StrictJSON

    // What the planted shield bugs answer (StrictJSON's PlantedBug; bug-finding benchmark builds only).
    extension ShieldSettings {
        /// The planted match of a token, or `nil` to go on as the reference does:
        /// `.exceptOverridesListed` lets the category policy's `except` set win over the token list;
        /// `.applicationReasonOverCategory` looks at the token list before the category policy.
        func plantedMatch<Member: TokenKind>(
            _ token: Token<Member>, in listed: Set<Token<Member>>?, _ policy: ActivityCategoryPolicy<Member>?,
            isVoid: (TokenIdentity) -> Bool
        ) -> Match? {
            let isListed = listed?.contains(token) == true && !isVoid(TokenIdentity(token))
            if PlantedBug.isActive(.exceptOverridesListed), isListed, let policy {
                switch policy {
                case .all(let except), .specific(_, let except): if except.contains(token) { return .nothing }
                case .none: break
                }
            }
            if PlantedBug.isActive(.applicationReasonOverCategory), isListed { return .token }
            return nil
        }

        /// `.categoryReasonWrongCategory`: the reason names the policy's first category, not the activity's own.
        func plantedPolicyCategoryReason(for activity: ShieldActivity) -> ShieldReason? {
            switch activity {
            case .application:
                return applicationCategories?.categories.min().map { .applicationCategory($0) }
            case .webDomain:
                return webDomainCategories?.categories.min().map { .webDomainCategory($0) }
            }
        }
    }
#endif
