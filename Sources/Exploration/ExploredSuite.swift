import Conformance
import Foundation
import StrictJSON

/// The minimal cases of findings (every example) as a suite of vectors (`SPEC.md` §5), so that `stc conformance --vectors FILE`
/// replays them and they can be committed as regressions.
///
/// A case's id comes from its content (``VectorAuthoring/defaultId(suite:op:input:)``), its tag is `explored` and
/// its source names the finding and its group (`stc explore: KEY (group: GROUP)`). Saving into an existing suite keeps every case it has and adds only cases whose
/// id and whose op and input are new; the file is written atomically.
///
/// ```swift
/// let added = try ExploredSuite.save(result.findings, to: "corpus/conformance/explored.json")
/// ```
public enum ExploredSuite {
    public static let tag = "explored"

    /// The suite `file` with the minimal case of each finding added; returns how many were added.
    @discardableResult
    public static func save(_ findings: [Finding], to file: String) throws -> Int {
        let name = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
        var suite = Suite(
            name: name, description: "Minimal cases of discrepancies found by stc explore.", file: file, cases: [])
        if FileManager.default.fileExists(atPath: file) {
            do {
                if let existing = try SuiteLoader.load(paths: [file]).first { suite = existing }
            } catch {
                throw ExploredSuiteError(
                    "\(file) is not a readable suite: " + error.errors.map(\.description).joined(separator: "; "))
            }
        }
        var added = 0
        for finding in findings {
            for example in finding.examples {
                let c = example.minimal
                let id = VectorAuthoring.defaultId(suite: suite.name, op: c.op, input: c.input)
                if suite.cases.contains(where: { $0.id == id || ($0.op == c.op && $0.input == c.input) }) { continue }
                suite.cases.append(
                    ConformanceCase(
                        id: id, suite: suite.name, op: c.op, input: c.input, expect: c.expect, tags: [tag],
                        source: "stc explore: \(finding.key) (group: \(finding.discrepancy.group))"))
                added += 1
            }
        }
        do {
            try ReportFile.writeAtomically(SuiteWriter.bytes(suite), to: file)
        } catch {
            throw ExploredSuiteError("cannot write \(file): \(error.description)")
        }
        return added
    }
}

/// Why a suite could not be saved.
public struct ExploredSuiteError: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}

/// The findings an implementation is known to have, one key a line (`#` starts a comment): a run with them is as
/// good as a run with none, and a listed finding that no longer shows up is stale (like an expected-failures
/// list, strict both ways).
public struct ExpectedFindings: Sendable, Equatable {
    public var file: String
    public var keys: [String]

    public init(file: String, keys: [String]) {
        self.file = file
        self.keys = keys
    }

    public static func load(path: String) throws -> ExpectedFindings {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ExploredSuiteError("cannot read the expected-findings file \(path)")
        }
        let keys = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .map { line in
                let text = line.firstIndex(of: "#").map { line[..<$0] } ?? line[...]
                return text.trimmingCharacters(in: .whitespaces)
            }
            .filter { !$0.isEmpty }
        return ExpectedFindings(file: path, keys: keys)
    }

    /// Whether the list names `finding`: its key (a rule), or its group's key (every rule of that cause).
    ///
    /// - Parameter finding: A finding of a run.
    /// - Returns: `true` when a line is the finding's key or its ``Discrepancy/group``.
    public func lists(_ finding: Finding) -> Bool {
        keys.contains(finding.key) || keys.contains(finding.discrepancy.group)
    }

    /// Findings the list does not name (by key or by group), and listed lines that name no finding and no group
    /// of this run.
    ///
    /// - Parameter findings: Findings of one run.
    /// - Returns: The unexpected findings and the stale lines.
    public func compare(_ findings: [Finding]) -> (unexpected: [Finding], stale: [String]) {
        let found = Set(findings.map(\.key)).union(findings.map(\.discrepancy.group))
        return (findings.filter { !lists($0) }, keys.filter { !found.contains($0) })
    }
}
