/// One bug planted in the reference for the bug-finding benchmark, and where each hammer looks for it.
///
/// Rule: `name` is the raw value of a `PlantedBug` case in StrictJSON (only compiled into the benchmark's builds,
/// set per process with `STC_PLANTED_BUG=<name>`); a test keeps this catalog and that enum equal. Source: SPEC §7
/// (the field-bug classes, `fieldBug`) and the bug-finding issue (the extra bugs of each family).
///
/// ```swift
/// let bug = PlantedBugCatalog.named("url.plus-for-space")!
/// bug.checks      // ["url"]: `stc check url` is the property hammer
/// bug.fuzzTarget  // "url"
/// ```
public struct PlantedBugEntry: Sendable, Hashable, Codable {
    /// The value of `STC_PLANTED_BUG` that turns it on; its first part is the family.
    public var name: String
    /// The SPEC §7 item it is an instance of (`7.1` … `7.12`), or `nil` for an extra bug of the family.
    public var fieldBug: String?
    /// What the planted code does wrong, as an app would.
    public var summary: String
    /// The `stc check` patterns of its family (the property hammer); empty when no property reaches the planted
    /// code, and then the hammer is not run (not found).
    public var checks: [String]
    /// The fuzz target of its family (`stc fuzz list`); `nil` when no target reaches the planted code.
    public var fuzzTarget: String?
    /// The explored operations or families (`stc explore --ops`); empty when the explorer sends nothing that
    /// reaches the planted code.
    public var explore: [String]
    /// The naive baseline harness of its family (`Lab/Naive`).
    public var naive: String

    /// The part of the name before the first dot: `selection`, `document`, `json`, `plist`, `encode`, `shield`,
    /// `lifecycle`, `auth`, `url`, `template`.
    public var family: String { String(name.prefix { $0 != "." }) }

    public init(
        _ name: String, fieldBug: String?, _ summary: String, checks: [String], fuzz: String?, explore: [String],
        naive: String
    ) {
        self.name = name
        self.fieldBug = fieldBug
        self.summary = summary
        self.checks = checks
        self.fuzzTarget = fuzz
        self.explore = explore
        self.naive = naive
    }
}

/// Every planted bug, in catalog order (SPEC §7 order, the extras of each family after its field bugs).
public enum PlantedBugCatalog {
    public static let all: [PlantedBugEntry] = selection + storage + shield + authorization + encoding + activity

    public static func named(_ name: String) -> PlantedBugEntry? { all.first { $0.name == name } }

    static let selection: [PlantedBugEntry] = [
        PlantedBugEntry(
            "selection.base64-force-unwrap", fieldBug: "7.1",
            "a stored string that is not valid base64 traps (Data(base64Encoded:)! at launch)",
            checks: ["selection"], fuzz: "selection-decode", explore: ["selection"], naive: "naive-selection"),
        PlantedBugEntry(
            "selection.decode-error-swallowed", fieldBug: "7.2",
            "every decoding error becomes an empty selection (\"0 apps blocked\")",
            checks: ["selection"], fuzz: "selection-differential", explore: ["selection"], naive: "naive-selection"),
        PlantedBugEntry(
            "selection.equality-by-string", fieldBug: "7.3",
            "two stored strings are equal only when they are the same string",
            checks: ["selection"], fuzz: "selection-decode", explore: ["selection"], naive: "naive-selection"),
        PlantedBugEntry(
            "selection.order-from-hash", fieldBug: "7.4",
            "display order is Set iteration order (row 3 acts on another app)",
            checks: ["selection"], fuzz: "selection-decode", explore: ["selection"], naive: "naive-selection"),
        PlantedBugEntry(
            "json.overlong-utf8-accepted", fieldBug: nil,
            "the JSON scanner accepts the overlong two-byte forms C0 xx and C1 xx",
            checks: ["selection"], fuzz: "json", explore: ["selection"], naive: "naive-selection"),
    ]

    /// The storage formats and documents (SPEC §1.1, §1.3). Only `selection.decode` with a `format` and
    /// `selection.encode` reach these sites: no property, fuzz target or explored operation sends a format or a
    /// document, so the three decoding plants are the vectors' alone. The encode plant's `""` has to come from the
    /// wire's `selection.encode` (Conformance, outside the reference the patch may touch), which decodes its input
    /// with `SelectionDecoder.decode(_:)` and writes it with `encoded(as:)`: the plant is that pair, the decoder
    /// handing over a placeholder for a failed input and the encoder writing the placeholder as no bytes. So the
    /// decoder's own hammers (properties, the differential target, `selection.order` and `selection.combine` in
    /// the explorer) see it too, as a decoding error that is not reported.
    static let storage: [PlantedBugEntry] = [
        PlantedBugEntry(
            "document.one-bad-wipes-all", fieldBug: "7.9",
            "a document with one bad selection answers no selections (try? JSONDecoder().decode(...) ?? [:])",
            checks: ["selection"], fuzz: nil, explore: ["selection"], naive: "naive-selection"),
        PlantedBugEntry(
            "json.empty-array-is-empty-selection", fieldBug: "7.10",
            "the json format reads [] (a failed rawValue's placeholder) as an empty selection",
            checks: ["selection"], fuzz: nil, explore: ["selection"], naive: "naive-selection"),
        PlantedBugEntry(
            "plist.empty-value-is-empty-selection", fieldBug: "7.11",
            "an empty stored value in a format other than base64-json reads as an empty selection (a first launch)",
            checks: ["selection"], fuzz: nil, explore: ["selection"], naive: "naive-selection"),
        PlantedBugEntry(
            "encode.empty-string-on-error", fieldBug: "7.12",
            "an encode the format cannot hold answers \"\" instead of unencodable (serialize…'s guard let … else { return \"\" })",
            checks: ["selection"], fuzz: nil, explore: ["selection"], naive: "naive-selection"),
    ]

    static let shield: [PlantedBugEntry] = [
        PlantedBugEntry(
            "shield.except-overrides-listed", fieldBug: "7.5",
            "a category policy's except set unshields an application that is listed by token",
            checks: ["shield"], fuzz: "shield", explore: ["shield"], naive: "naive-shield"),
        PlantedBugEntry(
            "shield.application-reason-over-category", fieldBug: "7.5",
            "a listed token's application reason is reported over its category's shield",
            checks: ["shield"], fuzz: "shield", explore: ["shield"], naive: "naive-shield"),
        PlantedBugEntry(
            "shield.limit-off-by-one", fieldBug: nil,
            "a set of exactly 50 tokens is refused as over the limit",
            checks: ["shield"], fuzz: "shield", explore: ["shield"], naive: "naive-shield"),
        PlantedBugEntry(
            "shield.category-reason-wrong-category", fieldBug: nil,
            "a category reason names the policy's first category, not the activity's own",
            checks: ["shield"], fuzz: "shield", explore: ["shield"], naive: "naive-shield"),
    ]

    static let authorization: [PlantedBugEntry] = [
        PlantedBugEntry(
            "lifecycle.clear-on-not-determined", fieldBug: "7.6",
            "a transient notDetermined read clears the shields",
            checks: ["lifecycle"], fuzz: "auth", explore: ["auth"], naive: "naive-auth"),
        PlantedBugEntry(
            "lifecycle.revocation-notice-repeated", fieldBug: "7.6",
            "every denied read after a revocation posts the notice again",
            checks: ["lifecycle"], fuzz: "auth", explore: ["auth"], naive: "naive-auth"),
        PlantedBugEntry(
            "lifecycle.pre-revocation-tokens-reapplied", fieldBug: "7.6",
            "re-authorization puts the stored pre-revocation selection back instead of asking for a pick",
            checks: ["lifecycle"], fuzz: "auth", explore: ["auth"], naive: "naive-auth"),
        PlantedBugEntry(
            "auth.stale-grant-accepted", fieldBug: nil,
            "a token from a revoked grant is valid again once any grant runs",
            checks: ["auth"], fuzz: "auth", explore: ["auth"], naive: "naive-auth"),
    ]

    static let encoding: [PlantedBugEntry] = [
        PlantedBugEntry(
            "url.alphanumerics-encoding", fieldBug: "7.7",
            "names encoded with CharacterSet.alphanumerics: letters of every script pass through, -._~ escaped",
            checks: ["url"], fuzz: "url", explore: ["url"], naive: "naive-url"),
        PlantedBugEntry(
            "url.lowercase-hex", fieldBug: "7.7", "escapes written in lower-case hex",
            checks: ["url"], fuzz: "url", explore: ["url"], naive: "naive-url"),
        PlantedBugEntry(
            "url.plus-for-space", fieldBug: "7.7", "a space encoded as +",
            checks: ["url"], fuzz: "url", explore: ["url"], naive: "naive-url"),
        PlantedBugEntry(
            "template.literal-key-rendered", fieldBug: "7.8",
            "a placeholder without a value shows its key (applicationName) on the shield",
            checks: ["template"], fuzz: "template", explore: ["template"], naive: "naive-template"),
        PlantedBugEntry(
            "template.format-specifier-trap", fieldBug: "7.8",
            "a {key:width} placeholder force-unwraps its width: {asNumber:} traps",
            checks: ["template"], fuzz: "template", explore: ["template"], naive: "naive-template"),
        PlantedBugEntry(
            "template.replaced-text-rescanned", fieldBug: nil,
            "the rendered text is scanned again, so a value that looks like a placeholder is replaced",
            checks: ["template"], fuzz: "template", explore: ["template"], naive: "naive-template"),
    ]

    static let activity: [PlantedBugEntry] = [
        PlantedBugEntry(
            "activity.midnight-end-on-start-day", fieldBug: "7.13",
            "an end of 00:00 is read as midnight at the start of the start's own day: the schedule never fires",
            checks: ["activity"], fuzz: nil, explore: ["activity"], naive: "naive-activity"),
        PlantedBugEntry(
            "activity.overnight-backwards", fieldBug: "7.14",
            "an end earlier in the day than the start is put on the start's day: the interval is negative",
            checks: ["activity"], fuzz: nil, explore: ["activity"], naive: "naive-activity"),
        PlantedBugEntry(
            "activity.clamped-at-midnight", fieldBug: "7.15",
            "an interval that would cross midnight ends at 23:59:59 of the start's day",
            checks: ["activity"], fuzz: nil, explore: ["activity"], naive: "naive-activity"),
        PlantedBugEntry(
            "activity.past-usage-counted", fieldBug: "7.16",
            "without includesPastActivity, use from the interval's start counts, even from before monitoring started",
            checks: ["activity"], fuzz: nil, explore: ["activity"], naive: "naive-activity"),
        PlantedBugEntry(
            "activity.mixed-kinds-delivered", fieldBug: "7.17",
            "a schedule of mixed kinds (time start, date end) gets its callbacks",
            checks: ["activity"], fuzz: nil, explore: ["activity"], naive: "naive-activity"),
        PlantedBugEntry(
            "activity.excessive-activities-ignored", fieldBug: "7.18",
            "the 21st activity is monitored instead of throwing excessiveActivities",
            checks: ["activity"], fuzz: "activity-timeline", explore: ["activity"], naive: "naive-activity"),
        PlantedBugEntry(
            "activity.stop-all-stops-nothing", fieldBug: "7.19",
            "stopMonitoring([]) stops nothing instead of every activity",
            checks: ["activity"], fuzz: nil, explore: ["activity"], naive: "naive-activity"),
        PlantedBugEntry(
            "settings.clear-all-keeps-groups", fieldBug: "7.20",
            "clearAllSettings() clears the shield only: denyAppRemoval, the web filter and hidden apps stay",
            checks: ["settings"], fuzz: "settings", explore: ["settings"], naive: "naive-settings"),
        PlantedBugEntry(
            "settings.blocked-applications-unlimited", fieldBug: "7.21",
            "blockedApplications past 50 apps hides them all instead of failing with limitExceeded",
            checks: ["settings"], fuzz: "settings", explore: ["settings"], naive: "naive-settings"),
        PlantedBugEntry(
            "settings.domain-exact-match", fieldBug: "7.22",
            "policy domains compared with the host as written: no subdomains, case-sensitive",
            checks: ["settings"], fuzz: "settings", explore: ["settings"], naive: "naive-settings"),
    ]
}
