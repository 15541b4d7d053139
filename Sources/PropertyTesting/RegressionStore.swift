// Failing cases kept as files, replayed first on every later run (SPEC §6).
//
// Layout: `<root>/<property>/regressions/<fnv1a64-hex>`, content = the choice bytes (the same bytes as
// `--replay` and as a libFuzzer input for the same generator). Files are named by content hash and never
// overwritten; each is written to a temporary file in the same directory and then renamed into place.

import Foundation

/// A directory of saved failing cases, one subdirectory per property.
public struct RegressionStore: Sendable, Equatable {
    /// The corpus root (e.g. `corpus/`; tests use a temporary directory).
    public let root: String

    public init(root: String) {
        self.root = root
    }

    /// The property's directory name: the name with anything but `A-Z a-z 0-9 . _ -` replaced by `_`
    /// (and a leading `.` replaced too, so no name escapes the root).
    public static func directoryName(for property: String) -> String {
        var out = ""
        for scalar in property.unicodeScalars {
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", "_", "-", ".": out.unicodeScalars.append(scalar)
            default: out.append("_")
            }
        }
        if out.isEmpty || out.hasPrefix(".") { out = "_" + out }
        return out
    }

    /// `<root>/<property>/regressions`.
    public func directory(for property: String) -> String {
        (root as NSString).appendingPathComponent(RegressionStore.directoryName(for: property) + "/regressions")
    }

    /// Every saved case for `property`, sorted by file name (so replay order is stable). Hidden and
    /// temporary files are skipped; an unreadable directory yields no entries.
    public func load(property: String) -> [(path: String, bytes: [UInt8])] {
        let dir = directory(for: property)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir) else { return [] }
        var entries: [(String, [UInt8])] = []
        for name in names.sorted() where !name.hasPrefix(".") {
            let path = (dir as NSString).appendingPathComponent(name)
            if let data = FileManager.default.contents(atPath: path) { entries.append((path, [UInt8](data))) }
        }
        return entries
    }

    /// Saves `bytes` for `property` unless an identical file exists; returns the file's path.
    @discardableResult
    public func save(_ bytes: [UInt8], property: String) throws -> String {
        try RegressionStore.saveNamedByContent(bytes, inDirectory: directory(for: property)).path
    }

    /// Writes `bytes` to `directory/<fnv1a64-hex>` (creating the directory) unless that file exists; `isNew` is
    /// false when it did. Never overwrites: a temporary file in the same directory is renamed into place.
    /// Used for regressions and, by `stc fuzz merge`, for seed files too.
    @discardableResult
    public static func saveNamedByContent(_ bytes: [UInt8], inDirectory dir: String) throws -> (
        path: String, isNew: Bool
    ) {
        let fm = FileManager.default
        try fm.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let path = (dir as NSString).appendingPathComponent(FNV1a64.hex(bytes))
        if fm.fileExists(atPath: path) { return (path, false) }  // same hash: already saved, never overwrite
        let temp = (dir as NSString).appendingPathComponent(
            ".tmp-\(FNV1a64.hex(bytes))-\(UInt64.random(in: .min ... .max))")
        guard fm.createFile(atPath: temp, contents: Data(bytes)) else {
            throw RegressionStoreError.cannotWrite(temp)
        }
        do {
            // moveItem refuses an existing destination, so a concurrent writer of the same case wins cleanly.
            try fm.moveItem(atPath: temp, toPath: path)
        } catch {
            try? fm.removeItem(atPath: temp)
            if fm.fileExists(atPath: path) { return (path, false) }
            throw error
        }
        return (path, true)
    }
}

public enum RegressionStoreError: Error, CustomStringConvertible {
    case cannotWrite(String)
    public var description: String {
        switch self {
        case .cannotWrite(let path): return "cannot write \(path)"
        }
    }
}
