import Foundation

/// The copy of the package that the schema build happens in, under `.build/mutation/package` of the package:
/// the working tree itself is never written.
///
/// Rules: every file of the package is copied except build products and version control (`.build`, `.git`,
/// `.swiftpm` at any depth); a symbolic link is copied as a link with the same (relative) destination, not
/// followed, so that a module directory linking elsewhere in the package (`Sources/ShippedVectors/Suites`) is
/// the same link in the copy; a file whose bytes are already there is left alone, so that its timestamp stays
/// and the next build is incremental; a file of the copy that the package no longer has is removed; rewritten
/// sources and the schema runtime replace or join the copied files.
///
/// ```swift
/// let copy = WorkCopy(packageRoot: "/work/repo", directory: "/work/repo/.build/mutation/package")
/// try copy.sync(replacing: ["Sources/StrictJSON/JSONScanner.swift": rewritten])
/// ```
public struct WorkCopy: Sendable {
    public let packageRoot: String
    public let directory: String

    static let skipped: Set<String> = [".build", ".git", ".swiftpm"]

    public init(packageRoot: String, directory: String) {
        self.packageRoot = packageRoot
        self.directory = directory
    }

    /// The package's files, relative to its root, sorted (symbolic links are not among them: ``packageLinks()``).
    public func packageFiles() throws(MutationError) -> [String] {
        try tree().files
    }

    /// The package's symbolic links, relative to its root, each with its destination as the link holds it.
    public func packageLinks() throws(MutationError) -> [(path: String, destination: String)] {
        try tree().links
    }

    func tree() throws(MutationError) -> (files: [String], links: [(path: String, destination: String)]) {
        var result: [String] = []
        var links: [(path: String, destination: String)] = []
        func walk(_ relative: String) throws(MutationError) {
            let path = relative.isEmpty ? packageRoot : packageRoot + "/" + relative
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: path)
            } catch {
                throw .io("cannot list \(path): \(error.localizedDescription)")
            }
            for name in names.sorted() where !Self.skipped.contains(name) {
                let child = relative.isEmpty ? name : relative + "/" + name
                if let destination = try? FileManager.default.destinationOfSymbolicLink(
                    atPath: packageRoot + "/" + child)
                {
                    links.append((child, destination))
                    continue
                }
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: packageRoot + "/" + child, isDirectory: &isDirectory)
                else {
                    continue
                }
                if isDirectory.boolValue { try walk(child) } else { result.append(child) }
            }
        }
        try walk("")
        return (result, links)
    }

    /// Makes the copy the package's files, with `replacing` (relative path → contents) in place of theirs or
    /// added; returns how many files were written.
    @discardableResult
    public func sync(replacing: [String: String]) throws(MutationError) -> Int {
        let (files, links) = try tree()
        var written = 0
        var wanted: Set<String> = Set(replacing.keys)
        for link in links {
            wanted.insert(link.path)
            if try makeLink(link.path, to: link.destination) { written += 1 }
        }
        for file in files {
            wanted.insert(file)
            if replacing[file] != nil { continue }
            guard let data = FileManager.default.contents(atPath: packageRoot + "/" + file) else {
                throw .io("cannot read \(packageRoot)/\(file)")
            }
            if try write(data, to: file) { written += 1 }
        }
        for (file, text) in replacing.sorted(by: { $0.key < $1.key }) where try write(Data(text.utf8), to: file) {
            written += 1
        }
        try removeStale(keeping: wanted, links: Set(links.map(\.path)))
        return written
    }

    /// Makes `relative` in the copy a symbolic link to `destination` unless it already is one; returns whether it
    /// changed anything.
    func makeLink(_ relative: String, to destination: String) throws(MutationError) -> Bool {
        let path = directory + "/" + relative
        if (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) == destination { return false }
        do {
            if (try? FileManager.default.attributesOfItem(atPath: path)) != nil {
                try FileManager.default.removeItem(atPath: path)
            }
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: destination)
        } catch {
            throw .io("cannot link \(path) to \(destination): \(error.localizedDescription)")
        }
        return true
    }

    /// Writes `data` at `relative` in the copy unless it is already there; returns whether it wrote.
    func write(_ data: Data, to relative: String) throws(MutationError) -> Bool {
        let path = directory + "/" + relative
        if FileManager.default.contents(atPath: path) == data { return false }
        do {
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw .io("cannot write \(path): \(error.localizedDescription)")
        }
        return true
    }

    func removeStale(keeping wanted: Set<String>, links: Set<String> = []) throws(MutationError) {
        guard let enumerator = FileManager.default.enumerator(atPath: directory) else { return }
        var stale: [String] = []
        while let relative = enumerator.nextObject() as? String {
            let name = (relative as NSString).lastPathComponent
            if Self.skipped.contains(name) || links.contains(relative) {
                enumerator.skipDescendants()
                continue
            }
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: directory + "/" + relative, isDirectory: &isDirectory)
            if exists && !isDirectory.boolValue && !wanted.contains(relative) { stale.append(relative) }
        }
        for relative in stale.sorted() {
            do {
                try FileManager.default.removeItem(atPath: directory + "/" + relative)
            } catch {
                throw .io("cannot remove \(directory)/\(relative): \(error.localizedDescription)")
            }
        }
    }
}
