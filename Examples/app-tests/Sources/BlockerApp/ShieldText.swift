/// The shield's title and subtitle, from the templates the app ships: `"{applicationName} is blocked"`,
/// `"Back at {time|the end of the day}"`.
public enum ShieldText {
    /// The text with each `{key}` or `{key|fallback}` filled in, and the keys that had no value.
    public static func render(_ template: String, values: [String: String?]) -> (text: String, missing: [String]) {
        var text = ""
        var missing: [String] = []
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            text += rest[..<open]
            let parts = rest[rest.index(after: open)..<close].split(
                separator: "|", maxSplits: 1, omittingEmptySubsequences: false)
            let key = String(parts[0])
            if let value = values[key] ?? nil, !value.isEmpty {
                text += value
            } else {
                if !missing.contains(key) { missing.append(key) }
                text += parts.count > 1 ? String(parts[1]) : key
            }
            rest = rest[rest.index(after: close)...]
        }
        return (text + rest, missing)
    }
}
