import Conformance

/// The conformance suites this package ships, `corpus/conformance/*.json`, built into the module.
///
/// A build-tool plugin (`Plugins/EmbedShippedVectors`) lists `corpus/conformance/*.json` whenever SwiftPM plans a
/// build and has `ShippedVectorsGenerator` write their bytes into a Swift file of this module, so the suites travel
/// with whatever links it (`stc`, an installed copy of it, a package that depends on this one) and need no path.
/// The files stay the one source. SwiftPM plans again when a module's directory changes, and `Suites` here links
/// to corpus/conformance, so a file added or removed there is built in or out at the next build (a changed file
/// is an input of the generator); `ShippedVectorsTests` fails when what is built in differs from the files.
///
/// ```swift
/// let suites = try ShippedVectors.suites()                       // every shipped suite, parsed once
/// let mine = try ShippedVectors.load(paths: ["shipped", "my-vectors"])  // the shipped ones beside your own
/// ```
public enum ShippedVectors {
    /// The path keyword that names the shipped suites among other paths (`stc conformance --vectors shipped`).
    public static let keyword = "shipped"

    /// Where the shipped suites come from, in this package's repository.
    public static let sourceDirectory = "corpus/conformance"

    /// One shipped suite file, as it was when the module was built.
    public struct File: Sendable, Hashable {
        /// Its name in ``ShippedVectors/sourceDirectory``: `url-encode.json`.
        public let name: String
        public let bytes: [UInt8]

        /// The `file` of its suite and of every load error in it: `shipped:url-encode.json`.
        public var label: String { ShippedVectors.keyword + ":" + name }
    }

    /// Every shipped file, sorted by name (the order ``SuiteLoader`` reads a directory in).
    public static let files: [File] = embeddedFiles.map { File(name: $0.name, bytes: $0.bytes) }.sorted {
        $0.name < $1.name
    }

    /// The shipped suites. They are parsed on first use, once per process; later calls share the result.
    public static func suites() throws(SuiteLoadFailure) -> [Suite] {
        try parsed.get()
    }

    private static let parsed = Result { () throws(SuiteLoadFailure) -> [Suite] in
        try SuiteLoader.parse(sources())
    }

    /// Loads suites like ``SuiteLoader/load(paths:)``, where the path ``keyword`` (`shipped`) names the shipped
    /// suites (write `./shipped` for a file or directory of that name). Ids and suite names must be unique across
    /// everything loaded together, the shipped suites included; every problem of every path is reported.
    public static func load(paths: [String]) throws(SuiteLoadFailure) -> [Suite] {
        if paths == [keyword] { return try suites() }
        var errors: [SuiteLoadError] = []
        var sources: [(file: String, bytes: [UInt8])] = []
        func add(_ more: [(file: String, bytes: [UInt8])]) {
            for source in more where !sources.contains(where: { $0.file == source.file }) { sources.append(source) }
        }
        for path in paths {
            if path == keyword {
                do {
                    add(try self.sources())
                } catch {
                    errors += error.errors
                }
            } else {
                do {
                    add(try SuiteLoader.read(paths: [path]))
                } catch {
                    errors += error.errors
                }
            }
        }
        if !errors.isEmpty { throw SuiteLoadFailure(errors) }
        return try SuiteLoader.parse(sources)
    }

    /// The shipped files as ``SuiteLoader/parse(_:)`` takes them, each labelled `shipped:NAME`.
    static func sources() throws(SuiteLoadFailure) -> [(file: String, bytes: [UInt8])] {
        guard !files.isEmpty else {
            throw SuiteLoadFailure([
                SuiteLoadError(
                    file: keyword,
                    message: "no suites were built in (\(sourceDirectory) held no *.json file at build time)")
            ])
        }
        return files.map { ($0.label, $0.bytes) }
    }
}

/// One file as the generated code spells it: UTF-8 text as a string literal (it compiles fast and costs nothing
/// at run time), any other bytes as an array.
struct EmbeddedFile {
    let name: String
    let bytes: [UInt8]

    init(name: String, utf8 text: StaticString) {
        self.name = name
        self.bytes = text.withUTF8Buffer { Array($0) }
    }

    init(name: String, bytes: [UInt8]) {
        self.name = name
        self.bytes = bytes
    }
}
