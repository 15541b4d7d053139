import Foundation
import ScreenTimeSelection

/// Usage to watch for during an activity's interval: the applications, categories and web domains it counts, and
/// the threshold whose reaching calls `eventDidReachThreshold(_:activity:)` (mirrors
/// `DeviceActivity.DeviceActivityEvent`).
///
/// An event with no token at all counts every second the device is in use (``includesAllActivity``). With
/// ``includesPastActivity``, usage from the start of the round hour holding the interval's start counts, even from
/// before monitoring started; without it, counting starts when monitoring does. Source: Apple:
/// DeviceActivityEvent, Apple: DeviceActivityEvent.includesPastActivity (SPEC.md §8.4).
///
/// ```swift
/// let limit = DeviceActivityEvent(
///     applications: selection.applicationTokens, categories: selection.categoryTokens,
///     webDomains: selection.webDomainTokens, threshold: DateComponents(minute: 30))
/// ```
public struct DeviceActivityEvent: Hashable, Sendable {
    /// The name of an event, unique within an activity (mirrors `DeviceActivityEvent.Name`).
    public struct Name: RawRepresentable, Hashable, Codable, Sendable, ExpressibleByStringLiteral,
        CustomStringConvertible
    {
        public var rawValue: String
        /// A name from its raw string.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// A name from its raw string.
        public init(_ rawValue: String) { self.rawValue = rawValue }
        /// A name written as a literal.
        public init(stringLiteral value: String) { self.rawValue = value }
        public var description: String { rawValue }
    }

    public let applications: Set<ApplicationToken>
    public let categories: Set<ActivityCategoryToken>
    public let webDomains: Set<WebDomainToken>
    /// The usage, a duration (`day`, `hour`, `minute`, `second` summed), at which the event is reached.
    public let threshold: DateComponents
    /// Whether usage before monitoring started counts (SPEC.md §8.4).
    public let includesPastActivity: Bool

    /// `true` when the event lists no token: it counts all activity. Source: Apple:
    /// DeviceActivityEvent.includesAllActivity.
    public var includesAllActivity: Bool { applications.isEmpty && categories.isEmpty && webDomains.isEmpty }

    /// An event that counts usage from the moment monitoring starts. Source: Apple:
    /// DeviceActivityEvent.init(applications:categories:webDomains:threshold:); that past activity is not
    /// included is Assumption A25.
    public init(
        applications: Set<ApplicationToken> = [], categories: Set<ActivityCategoryToken> = [],
        webDomains: Set<WebDomainToken> = [], threshold: DateComponents
    ) {
        self.init(
            applications: applications, categories: categories, webDomains: webDomains, threshold: threshold,
            includesPastActivity: false)
    }

    /// An event, saying whether usage before monitoring started counts. Source: Apple:
    /// DeviceActivityEvent.init(applications:categories:webDomains:threshold:includesPastActivity:).
    public init(
        applications: Set<ApplicationToken> = [], categories: Set<ActivityCategoryToken> = [],
        webDomains: Set<WebDomainToken> = [], threshold: DateComponents, includesPastActivity: Bool
    ) {
        self.applications = applications
        self.categories = categories
        self.webDomains = webDomains
        self.threshold = threshold
        self.includesPastActivity = includesPastActivity
    }
}
