import StrictJSON
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The match rule of `SPEC.md` §5.
///
/// - `{"error": CODE}` matches an error answer with exactly that code.
/// - `{"output": OBJECT}` matches an output answer (an object) in which every member named in `OBJECT` is
///   present and JSON-equal (objects as unordered key sets, numbers by value, arrays in order); members of the
///   actual output that the expectation does not name are not compared.
/// - `crash`, `timeout`, `protocol` and `unsupported` answers are their own statuses, whatever was expected.
public enum Matcher {
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
                        jsonEqual(actualValue, members.values[index])
                    else {
                        allEqual = false
                        break
                    }
                }
                if allEqual { return (.pass, nil) }
                var differences: [(key: String, text: String)] = []
                for (key, expectedValue) in members {
                    guard let actualValue = InputReader.lookup(actualMembers, key) else {
                        differences.append((key, "\(key): missing (expected \(truncate(expectedValue.description, 80)))"))
                        continue
                    }
                    if !jsonEqual(actualValue, expectedValue) {
                        differences.append(
                            (key, "\(key): expected \(truncate(expectedValue.description, 80)), got \(truncate(actualValue.description, 80))"))
                    }
                }
                if differences.isEmpty { return (.pass, nil) }
                differences.sort { JSONWriter.codePointLess($0.key, $1.key) }
                return (.fail, differences.map(\.text).joined(separator: "; "))
            }
        }
    }

    /// JSON equality exactly as `JSONValue ==` defines it (strings and keys by UTF-8 bytes, numbers by value,
    /// arrays in order, objects as key sets), without its costs: `==` sorts both objects' members and compares
    /// strings byte by byte through a generic sequence walk, which for a selection's canonical base64 (kilobytes)
    /// was a quarter of the in-process runner's time. Here strings compare lengths and then memory, and objects
    /// look each member up instead of sorting.
    public static func jsonEqual(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.number(let x), .number(let y)): return x == y
        case (.string(let x), .string(let y)): return sameBytes(x, y)
        case (.array(let x), .array(let y)):
            guard x.count == y.count else { return false }
            for i in x.indices where !jsonEqual(x[i], y[i]) { return false }
            return true
        case (.object(let x), .object(let y)):
            guard x.count == y.count else { return false }
            for (key, value) in x {
                // A dictionary finds keys by canonical equivalence; `==` compares keys by bytes, so the key found
                // must also have the same bytes. With equal counts, every key of `x` found byte-equal in `y`
                // means the two key sets are the same, as `==`'s sorted walk concludes.
                guard let index = y.index(forKey: key) else { return false }
                let member = y[index]
                guard sameBytes(member.key, key), jsonEqual(value, member.value) else { return false }
            }
            return true
        default: return false
        }
    }

    /// Whether two strings hold the same UTF-8 bytes (not canonical equivalence, which `String ==` uses).
    static func sameBytes(_ x: String, _ y: String) -> Bool {
        let (xs, ys) = (x.utf8, y.utf8)
        guard xs.count == ys.count else { return false }
        let fast = xs.withContiguousStorageIfAvailable { xb in
            ys.withContiguousStorageIfAvailable { yb -> Bool in
                guard let xp = xb.baseAddress, let yp = yb.baseAddress else { return true }  // both empty
                return memcmp(xp, yp, xb.count) == 0
            }
        }
        if let result = fast ?? nil { return result }
        return xs.elementsEqual(ys)
    }

    /// Cuts `text` to at most `limit` characters, saying how long it was.
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
