/// What one ``ManagedSettingsStore`` filters on the web (mirrors `ManagedSettings.WebContentSettings`).
///
/// Rule: ``blockedByFilter`` is `nil` until the app sets a policy; any policy other than `.none` also disables
/// Safari's private browsing. Over several stores the most restrictive say wins (`SPEC.md` §9.3).
///
/// ```swift
/// store.webContent.blockedByFilter = .specific([WebDomain(domain: "example.com")])
/// store.webContent.blockedByFilter = .auto()          // adult content, as iOS's filter judges it
/// store.webContent.blockedByFilter = .all(except: [WebDomain(domain: "school.edu")])
/// ```
///
/// Source: Apple doc (WebContentSettings, blockedByFilter).
public struct WebContentSettings: Hashable, Sendable {
    /// The store's web filter, or `nil`: the store does not filter. Source: Apple doc.
    public var blockedByFilter: FilterPolicy?

    /// Settings with nothing set.
    public init(blockedByFilter: FilterPolicy? = nil) {
        self.blockedByFilter = blockedByFilter
    }

    /// True when nothing is set. (Ours.)
    public var isUnset: Bool { blockedByFilter == nil }

    /// How a store filters websites (mirrors `WebContentSettings.FilterPolicy`).
    ///
    /// Rule (`SPEC.md` §9.3): `.none` affects no domain; `.specific(D)` blocks `D`; `.all(except: E)` blocks every
    /// site but `E`; `.auto(D, except: E)` blocks adult content and `D`, and `E` overrides both. At most 50 domains
    /// in `D` and 50 in `E` (``ManagedSettingsGroups/maximumDomainCount``).
    /// Example: `.auto([WebDomain(domain: "casino.example")], except: [WebDomain(domain: "wiki.example")])`.
    ///
    /// Source: Apple doc (WebContentSettings.FilterPolicy and its cases).
    public enum FilterPolicy: Hashable, Sendable {
        /// The policy affects no domain.
        case none
        /// Blocks adult content (iOS's filter decides which) and `domains`; `except` overrides both.
        case auto(Set<WebDomain> = [], except: Set<WebDomain> = [])
        /// Blocks the given domains.
        case specific(Set<WebDomain>)
        /// Blocks every website except the given ones.
        case all(except: Set<WebDomain> = [])

        /// The domains the policy blocks by name (`auto` and `specific`; empty otherwise). (Ours.)
        public var domains: Set<WebDomain> {
            switch self {
            case .auto(let domains, _), .specific(let domains): return domains
            case .none, .all: return []
            }
        }

        /// The domains the policy lets through (`auto` and `all`; empty otherwise). (Ours.)
        public var exceptions: Set<WebDomain> {
            switch self {
            case .auto(_, let except), .all(let except): return except
            case .none, .specific: return []
            }
        }
    }
}
