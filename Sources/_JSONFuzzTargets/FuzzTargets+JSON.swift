import StrictJSON
@_exported import _FuzzCore  // the shim of `json` imports only this module

extension FuzzTargets {
    /// The targets of this module, in `stc fuzz list` order.
    public static let jsonTargets = [json]

    /// `json`: any bytes through the strict JSON parser on its own (the selection targets reach it only through
    /// a selection's schema). Parsing is total: a value or a typed error with an offset inside the input; and the
    /// canonical writer's text of a parsed value parses back to the same value, and is a fixed point.
    ///
    /// `maxLength` 1024: room for nesting, escapes and every kind of number, as the other grammar targets.
    public static let json = FuzzTarget(
        name: "json", summary: "any bytes as JSON: total strict parse, canonical writer round trip and fixed point",
        maxLength: 1024,
        inPlace: { bytes in
            let value: JSONValue
            do throws(JSONParseError) {
                value = try JSONParser.value(bytes)
            } catch {
                let offsetIsInside = error.offset >= 0 && error.offset <= bytes.count
                return offsetIsInside
                    ? nil : HarnessFailure("error offset inside the input", "\(error), \(bytes.count) bytes")
            }
            let written = JSONWriter.string(value)
            let again: JSONValue
            do throws(JSONParseError) {
                again = try JSONParser.value(written)
            } catch {
                return HarnessFailure("canonical JSON parses", "\(error) in \(written)")
            }
            if again != value { return HarnessFailure("canonical JSON parses back to the same value", written) }
            let rewritten = JSONWriter.string(again)
            return rewritten == written
                ? nil : HarnessFailure("canonical JSON is a fixed point", "\(written) then \(rewritten)")
        })
}
