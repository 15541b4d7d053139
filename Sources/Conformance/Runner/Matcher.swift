import StrictJSON

/// The match rule of `SPEC.md` §5.
///
/// - `{"error": CODE}` matches an error answer with exactly that code.
/// - `{"output": OBJECT}` matches an output answer (an object) in which every member named in `OBJECT` is
///   present and JSON-equal (objects as unordered key sets, numbers by value, arrays in order); members of the
///   actual output that the expectation does not name are not compared.
/// - `crash`, `timeout`, `protocol` and `unsupported` answers are their own statuses, whatever was expected.
public enum Matcher {
    /// Judges one answer against a vector's expectation, by the rule above.
    ///
    /// - Parameters:
    ///   - expectation: What the vector expects.
    ///   - answer: What the implementation answered.
    /// - Returns: The status, and for `fail` what differs.
    public static func judge(_ expectation: Expectation, _ answer: Answer) -> (status: CaseStatus, mismatch: String?) {
        switch answer {
        case .crash: return (.crash, nil)
        case .timeout: return (.timeout, nil)
        case .protocolViolation: return (.protocol, nil)
        case .unsupported: return (.unsupported, nil)
        case .error(let code):
            switch expectation {
            case .error(let expected):
                return code == expected ? (.pass, nil) : (.fail, "expected error \(expected), got error \(code)")
            case .output:
                return (.fail, "expected an output, got error \(code)")
            }
        case .output(let actual):
            switch expectation {
            case .error(let expected):
                return (.fail, "expected error \(expected), got output \(truncate(actual.description, 160))")
            case .output(let members):
                guard case .object(let actualMembers) = actual else {
                    return (.fail, "expected an output object, got \(actual.typeName)")
                }
                // A pass (the common case) compares without building anything; the differences are
                // gathered only once one is found.
                var allEqual = true
                for index in members.indices {
                    guard let actualValue = InputReader.lookup(actualMembers, members.keys[index]),
                        actualValue == members.values[index]
                    else {
                        allEqual = false
                        break
                    }
                }
                if allEqual { return (.pass, nil) }
                var differences: [(key: String, text: String)] = []
                for (key, expectedValue) in members {
                    guard let actualValue = InputReader.lookup(actualMembers, key) else {
                        differences.append(
                            (key, "\(key): missing (expected \(truncate(expectedValue.description, 80)))"))
                        continue
                    }
                    if actualValue != expectedValue {
                        differences.append(
                            (
                                key,
                                "\(key): expected \(truncate(expectedValue.description, 80)), got \(truncate(actualValue.description, 80))"
                            ))
                    }
                }
                if differences.isEmpty { return (.pass, nil) }
                differences.sort { JSONWriter.codePointLess($0.key, $1.key) }
                return (.fail, differences.map(\.text).joined(separator: "; "))
            }
        }
    }

    /// Cuts `text` to at most `limit` characters, saying how long it was.
    ///
    /// - Parameters:
    ///   - text: Any text.
    ///   - limit: The most characters kept.
    /// - Returns: The text, cut.
    public static func truncate(_ text: String, _ limit: Int) -> String {
        var count = 0
        var end = text.startIndex
        while end < text.endIndex {
            if count == limit { return String(text[..<end]) + "… (\(text.count) chars)" }
            count += 1
            end = text.index(after: end)
        }
        return text
    }
}
