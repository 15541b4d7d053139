#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import StrictJSON

/// A report could not be written.
public struct ReportWriteError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var message: String
    public var description: String { "\(path): \(message)" }
}

/// Writing to file descriptors without stdio buffering.
public enum FileDescriptor {
    /// Writes all of `bytes` to `fd`, retrying after interrupted writes; `false` when a write fails (for
    /// example, the reader of a pipe went away).
    @discardableResult
    public static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { raw in
            guard let baseAddress = raw.baseAddress else { return true }
            var written = 0
            while written < raw.count {
                let n = write(fd, baseAddress + written, raw.count - written)
                if n > 0 {
                    written += n
                } else if n < 0 && errno == EINTR {
                    continue
                } else {
                    return false
                }
            }
            return true
        }
    }
}

/// Writes report files atomically: a temporary file in the same directory, then `rename`, so that a reader
/// never sees half a report and an old report survives a failed write.
public enum ReportFile {
    public static func writeAtomically(_ bytes: [UInt8], to path: String) throws(ReportWriteError) {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[..<$0]) } ?? "."
        let base = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard !base.isEmpty else { throw ReportWriteError(path: path, message: "not a file name") }
        let temporary = (directory.isEmpty ? "" : directory + "/") + ".\(base).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw ReportWriteError(path: path, message: "cannot create a file in \(directory): \(errnoText())") }
        var failure: String?
        if !FileDescriptor.writeAll(fd, bytes) { failure = "write failed: \(errnoText())" }
        if failure == nil && fsync(fd) != 0 && errno != EINVAL { failure = "fsync failed: \(errnoText())" }
        if close(fd) != 0 && failure == nil { failure = "close failed: \(errnoText())" }
        if failure == nil && rename(temporary, path) != 0 { failure = "rename failed: \(errnoText())" }
        if let failure {
            unlink(temporary)
            throw ReportWriteError(path: path, message: failure)
        }
    }

    public static func writeAtomically(_ text: String, to path: String) throws(ReportWriteError) {
        try writeAtomically(Array(text.utf8), to: path)
    }
}

/// Escaping for the reports. Vector inputs and adapter output are hostile strings: they may hold markup,
/// control characters or terminal escape sequences.
public enum Escape {
    /// Replaces characters that must not reach a terminal, XML 1.0 or HTML: C0 controls (except tab and, when
    /// `keepNewlines`, LF and CR), DEL, C1 controls, U+FFFE and U+FFFF. Each becomes a visible `\u{…}`.
    public static func controls(_ s: String, keepNewlines: Bool = false) -> String {
        var needs = false
        for u in s.unicodeScalars where isBad(u, keepNewlines) {
            needs = true
            break
        }
        if !needs { return s }
        var out = String.UnicodeScalarView()
        for u in s.unicodeScalars {
            if isBad(u, keepNewlines) {
                out.append(contentsOf: "\\u{\(String(u.value, radix: 16, uppercase: true))}".unicodeScalars)
            } else {
                out.append(u)
            }
        }
        return String(out)
    }

    private static func isBad(_ u: Unicode.Scalar, _ keepNewlines: Bool) -> Bool {
        let v = u.value
        if v == 0x09 { return false }
        if v == 0x0A || v == 0x0D { return !keepNewlines }
        return v < 0x20 || (v >= 0x7F && v <= 0x9F) || v == 0xFFFE || v == 0xFFFF
    }

    /// Text for HTML element content or a quoted attribute value.
    public static func html(_ s: String, keepNewlines: Bool = true) -> String {
        markup(s, .html, keepNewlines: keepNewlines)
    }

    /// Text for XML 1.0 content or attributes; in attributes, newlines and tabs are written as character
    /// references so that attribute normalisation keeps them.
    public static func xml(_ s: String, attribute: Bool = false) -> String {
        markup(s, attribute ? .xmlAttribute : .xmlContent, keepNewlines: true)
    }

    private enum Markup {
        case html, xmlContent, xmlAttribute
    }

    /// The one escaper behind ``html(_:keepNewlines:)`` and ``xml(_:attribute:)``: ``controls(_:keepNewlines:)``,
    /// then the five markup characters as references (`'` as `&#39;` in HTML, `&apos;` in XML). In XML a CR is
    /// always a reference (a parser would turn it into LF), and in an attribute LF and tab are too.
    private static func markup(_ s: String, _ dialect: Markup, keepNewlines: Bool) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for ch in controls(s, keepNewlines: keepNewlines).unicodeScalars {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += dialect == .html ? "&#39;" : "&apos;"
            case "\n" where dialect == .xmlAttribute: out += "&#10;"
            case "\t" where dialect == .xmlAttribute: out += "&#9;"
            case "\r" where dialect != .html: out += "&#13;"
            default: out.unicodeScalars.append(ch)
            }
        }
        return out
    }

    /// `text` cut to `limit` characters, saying how much was cut.
    public static func truncated(_ text: String, _ limit: Int) -> String {
        Matcher.truncate(text, limit)
    }
}

extension ConformanceCase {
    /// The expectation as compact JSON text.
    var expectedText: String { expect.json.description }
}

extension Answer {
    /// The answer as compact JSON text.
    var text: String { json.description }
}
