#if STC_PLANTED_BUGS
    // Only the bug-finding benchmark's builds get here: Package.swift defines STC_PLANTED_BUGS for the reference's
    // modules when the environment variable STC_PLANTED_BUGS=1 is set (`stc bench --filter bugs` sets it for its
    // own scratch builds), and never otherwise. A test in every normal `swift test` checks that it is not set.
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// A known bug planted in the reference, so that the benchmark can measure which hammer finds it and how fast
    /// (docs/BUG-FINDING.md). One build carries every planted bug; `STC_PLANTED_BUG=<raw value>` in the
    /// environment turns on one of them for the whole process, and without it the build behaves as the reference.
    ///
    /// Rule: each case is used at one or more `PlantedBug.isActive(.case)` sites in the reference's modules, and
    /// the benchmark's catalog (`PlantedBugCatalog` in BugFinding) lists exactly these raw values; a test checks
    /// both. Source: SPEC §7 (the field-bug classes) and the bug-finding issue's extra bugs.
    /// Example: `STC_PLANTED_BUG=url.plus-for-space .build/planted/release/stc conformance` fails the url vectors.
    package enum PlantedBug: String, CaseIterable, Sendable {
        // Selection (SPEC §7.1–§7.4).
        case base64ForceUnwrap = "selection.base64-force-unwrap"
        case decodeErrorSwallowed = "selection.decode-error-swallowed"
        case equalityByString = "selection.equality-by-string"
        case orderFromHash = "selection.order-from-hash"
        // JSON.
        case overlongUTF8Accepted = "json.overlong-utf8-accepted"
        // Shield (SPEC §7.5, and two more of that family).
        case exceptOverridesListed = "shield.except-overrides-listed"
        case applicationReasonOverCategory = "shield.application-reason-over-category"
        case limitOffByOne = "shield.limit-off-by-one"
        case categoryReasonWrongCategory = "shield.category-reason-wrong-category"
        // Authorization and lifecycle (SPEC §7.6, and one more).
        case clearOnNotDetermined = "lifecycle.clear-on-not-determined"
        case revocationNoticeRepeated = "lifecycle.revocation-notice-repeated"
        case preRevocationTokensReapplied = "lifecycle.pre-revocation-tokens-reapplied"
        case staleGrantAccepted = "auth.stale-grant-accepted"
        // URL and shield-text encoding (SPEC §7.7, §7.8, and one more).
        case alphanumericsEncoding = "url.alphanumerics-encoding"
        case lowercaseHex = "url.lowercase-hex"
        case plusForSpace = "url.plus-for-space"
        case literalKeyRendered = "template.literal-key-rendered"
        case formatSpecifierTrap = "template.format-specifier-trap"
        case replacedTextRescanned = "template.replaced-text-rescanned"

        /// The bug this process runs with: `STC_PLANTED_BUG`, read once. An unknown name stops the process, so that
        /// a typo never measures the clean reference as if it were a planted bug.
        package static let active: PlantedBug? = {
            guard let raw = getenv("STC_PLANTED_BUG") else { return nil }
            let name = String(cString: raw)
            if name.isEmpty { return nil }
            guard let bug = PlantedBug(rawValue: name) else {
                fatalError("STC_PLANTED_BUG=\(name): no such planted bug (docs/BUG-FINDING.md lists them)")
            }
            return bug
        }()

        /// Whether `bug` is the one this process runs with.
        @inline(__always)
        package static func isActive(_ bug: PlantedBug) -> Bool { active == bug }
    }
#endif

/// Whether this build of the reference has the bug-finding benchmark's planted bugs compiled in: `false` in every
/// build but the benchmark's own (Package.swift, STC_PLANTED_BUGS=1). `swift test` checks it is `false`.
package let plantedBugsCompiledIn: Bool = {
    #if STC_PLANTED_BUGS
        return true
    #else
        return false
    #endif
}()
