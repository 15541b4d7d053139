import Foundation

/// The planted bugs as one patch over the product's sources (`Lab/Plants/planted-bugs.patch`): applied only in a
/// copy of the package that the lab builds, so that the product's `Sources/` never hold planted code.
///
/// Rules: the patch is a `git diff` of the package with the plants against it without them (paths `a/…` and
/// `b/…` from the package root); it adds `PlantedBug` (StrictJSON) and its `PlantedBug.isActive(.case)` sites, each
/// off unless `STC_PLANTED_BUG` names it at run time. Applying it never writes the package: the files it touches
/// are copied to a scratch directory and patched there with `git apply`, which applies all of it or nothing.
/// `Lab/scripts/plants.sh` checks it, checks out an editable planted copy, and saves the edits back.
///
/// ```swift
/// let files = try PlantPatch(path: root + "/Lab/Plants/planted-bugs.patch").applied(to: root)
/// // files["Sources/StrictJSON/PlantedBug.swift"] is the planted text
/// ```
public struct PlantPatch: Sendable {
    /// The patch file.
    public let path: String

    /// What went wrong reading or applying the patch.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// - Parameter path: the patch file.
    public init(path: String) { self.path = path }

    /// The patch's text.
    /// - Throws: ``Failure`` when it cannot be read.
    public func text() throws(Failure) -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Failure(description: "cannot read the plants' patch \(path)")
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// The files the patch writes, relative to the package root (its `+++ b/…` lines), in the patch's order.
    /// - Throws: ``Failure`` when it cannot be read or names no file.
    public func files() throws(Failure) -> [String] {
        let files = try text().split(separator: "\n").compactMap { line -> String? in
            line.hasPrefix("+++ b/") ? String(line.dropFirst("+++ b/".count)) : nil
        }
        if files.isEmpty { throw Failure(description: "\(path) names no file (is it a git diff?)") }
        return files
    }

    /// The planted text of every file the patch writes, from the package's current files.
    /// - Parameter root: the package the patch is applied to (only read).
    /// - Returns: path relative to `root` → the file's text with the plants.
    /// - Throws: ``Failure`` when `git` cannot run or the patch no longer applies (its message says which hunk).
    public func applied(to root: String) throws(Failure) -> [String: String] {
        let files = try files()
        let fm = FileManager.default
        let scratch = fm.temporaryDirectory.appendingPathComponent("lab-plants-\(UUID().uuidString)").path
        defer { try? fm.removeItem(atPath: scratch) }
        for file in files where fm.fileExists(atPath: root + "/" + file) {
            let target = scratch + "/" + file
            do {
                try fm.createDirectory(
                    atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try fm.copyItem(atPath: root + "/" + file, toPath: target)
            } catch {
                throw Failure(description: "cannot copy \(file) to \(scratch): \(error.localizedDescription)")
            }
        }
        guard let git = PlantedBuilds.which("git") else { throw Failure(description: "`git` is not on the PATH") }
        let absolutePatch = URL(fileURLWithPath: path).standardizedFileURL.path
        // The scratch directory is no repository: git apply then works as patch does, relative to it, and a
        // repository around the temporary directory is never looked for.
        let outcome: TimedProcess.Outcome
        do {
            try fm.createDirectory(atPath: scratch, withIntermediateDirectories: true)
            outcome = try TimedProcess.run(
                git, ["apply", "--whitespace=nowarn", absolutePatch],
                environment: ["GIT_CEILING_DIRECTORIES": (scratch as NSString).deletingLastPathComponent],
                directory: scratch, limit: 60)
        } catch {
            throw Failure(description: "cannot run git apply: \(error)")
        }
        guard outcome.status == 0, !outcome.signaled else {
            throw Failure(
                description: "the plants' patch \(path) no longer applies to \(root) (rewrite it with "
                    + "Lab/scripts/plants.sh checkout, then save):\n\(outcome.tail(20))")
        }
        var result: [String: String] = [:]
        for file in files {
            guard let data = fm.contents(atPath: scratch + "/" + file) else {
                throw Failure(description: "git apply left no \(file)")
            }
            result[file] = String(decoding: data, as: UTF8.self)
        }
        return result
    }
}
