import StrictJSON

/// Writes a suite in the layout people review: header members first, then one case per line, each case's members
/// in the order of `SPEC.md` §5 (`id`, `op`, `input`, `expect`, `tags`, `source`). Values inside are compact JSON
/// with sorted keys, so the same suite always gives the same bytes and a new case is a one-line diff.
public enum SuiteWriter {
    /// The bytes of `suite` in the layout above, with a final newline.
    ///
    /// - Parameter suite: The suite to write.
    /// - Returns: The file's bytes.
    public static func bytes(_ suite: Suite) -> [UInt8] {
        var out: [UInt8] = []
        func put(_ s: String) { out.append(contentsOf: s.utf8) }
        func string(_ s: String) { JSONWriter.writeString(s, into: &out) }
        put("{\n  \"suite\": ")
        string(suite.name)
        put(",\n  \"schema\": \(SuiteLoader.schemaVersion),\n  \"description\": ")
        string(suite.description)
        put(",\n  \"cases\": [")
        for (i, c) in suite.cases.enumerated() {
            put(i == 0 ? "\n    " : ",\n    ")
            put("{\"id\": ")
            string(c.id)
            put(", \"op\": ")
            string(c.op)
            put(", \"input\": ")
            JSONWriter.write(c.input, into: &out)
            put(", \"expect\": ")
            JSONWriter.write(c.expect.json, into: &out)
            put(", \"tags\": ")
            JSONWriter.write(.array(c.tags.map(JSONValue.string)), into: &out)
            put(", \"source\": ")
            string(c.source)
            put("}")
        }
        put(suite.cases.isEmpty ? "]\n}\n" : "\n  ]\n}\n")
        return out
    }
}
