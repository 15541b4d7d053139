/// One fuzz target: a name, the libFuzzer settings it runs with, and a body that takes any bytes and checks the
/// reference's invariants on them.
///
/// The same bodies run under libFuzzer (the thin shims in `Fuzz/Sources/<name>/`) and under `swift test`, which
/// replays every seed and regression in `corpus/<name>/` without libFuzzer. A body never traps on its own; it
/// returns a ``HarnessFailure`` when an invariant breaks, and the libFuzzer shim turns that into a crash.
///
/// ```swift
/// extension FuzzTargets {
///     public static let url = FuzzTarget(name: "url", summary: "…", maxLength: 512) { bytes in … }
/// }
/// ```
public struct FuzzTarget: Sendable {
    public let name: String
    public let summary: String
    /// libFuzzer's `-max_len` for this target: big enough for the structure it explores, small enough that the
    /// fuzzer does not spend its time on long inputs that reach nothing new (Fuzz/README.md, "Choosing -max_len").
    public let maxLength: Int
    /// The module that declares the target: the one its shim imports and its fuzz binary links.
    public let module: String
    public let body: @Sendable ([UInt8]) -> HarnessFailure?
    /// What libFuzzer runs per input, when cheaper than ``body``: it must check a subset of what `body` checks, so
    /// that every crash it finds still fails `body` on replay. `nil`: libFuzzer runs `body`.
    public let fuzzBody: (@Sendable ([UInt8]) -> HarnessFailure?)?
    /// ``body`` for a harness that reads its input in place: libFuzzer's buffer is then checked without copying
    /// it into an array (one allocation less per execution), and ASan sees any read past its exact end.
    public let inPlaceBody: (@Sendable (UnsafeBufferPointer<UInt8>) -> HarnessFailure?)?

    public init(
        name: String, summary: String, maxLength: Int, fileID: String = #fileID,
        body: @escaping @Sendable ([UInt8]) -> HarnessFailure?,
        fuzzBody: (@Sendable ([UInt8]) -> HarnessFailure?)? = nil
    ) {
        self.name = name
        self.summary = summary
        self.maxLength = maxLength
        self.module = String(fileID.prefix { $0 != "/" })
        self.body = body
        self.fuzzBody = fuzzBody
        self.inPlaceBody = nil
    }

    /// A target whose harness reads the bytes in place: replay runs the same function on an array's buffer.
    public init(
        name: String, summary: String, maxLength: Int, fileID: String = #fileID,
        inPlace: @escaping @Sendable (UnsafeBufferPointer<UInt8>) -> HarnessFailure?
    ) {
        self.name = name
        self.summary = summary
        self.maxLength = maxLength
        self.module = String(fileID.prefix { $0 != "/" })
        self.body = { bytes in bytes.withUnsafeBufferPointer(inPlace) }
        self.fuzzBody = nil
        self.inPlaceBody = inPlace
    }
}

/// The fuzz targets, as static members, each declared in the harness module of what it tests (`_SelectionFuzzTargets`,
/// `_EncodingFuzzTargets`, `_DifferentialFuzzTargets`, `_StructuredFuzzTargets`, `_ActivityFuzzTargets`), which
/// also lists its own; `_FuzzCorpus` puts the lists together as `FuzzTargets.all`. Kept apart so that a libFuzzer
/// binary links only what it fuzzes: libFuzzer scans every coverage counter of the binary after every execution.
public enum FuzzTargets {}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension FuzzTarget {
    /// What libFuzzer runs on one input: ``inPlaceBody`` on the buffer itself, else ``fuzzBody`` or ``body`` on a
    /// copy. (`stc fuzz replay --as-fuzzer` runs this too, so that a profiler measures what the fuzzer does.)
    public func runAsFuzzer(_ input: UnsafeBufferPointer<UInt8>) -> HarnessFailure? {
        if let inPlaceBody { return inPlaceBody(input) }
        let bytes = Array(input)
        // Not `(fuzzBody ?? body)(bytes)`: that builds a closure (a heap allocation) on every execution.
        if let fuzzBody { return fuzzBody(bytes) }
        return body(bytes)
    }

    /// The body of `LLVMFuzzerTestOneInput`: runs the harness on libFuzzer's bytes; on a broken invariant writes
    /// it to stderr and aborts, which libFuzzer records as a crash and saves. Each shim in `Fuzz/` is one call.
    ///
    /// The message is two lines: `invariant failed in TARGET: INVARIANT`, then the details indented, so that the
    /// first line names the invariant alone (`stc fuzz campaign` keys such a crash by it: every one of them has the
    /// same stack, this function's).
    public func libFuzzerEntry(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
        if let failure = runAsFuzzer(UnsafeBufferPointer(start: data, count: data == nil ? 0 : size)) {
            let details = failure.details.isEmpty ? "" : "\n  " + failure.details
            let message = Array("invariant failed in \(name): \(failure.invariant)\(details)\n".utf8)
            _ = message.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
            abort()
        }
        return 0
    }
}

/// What LeakSanitizer must not report in a fuzz binary: the Swift runtime's cache of type names.
///
/// Rule: one suppression, `leak:swift_getTypeName`. In a statically linked binary (ClusterFuzzLite's and OSS-Fuzz's
/// builds), LeakSanitizer reports each name `swift_getTypeName` allocates and caches for the process's life as
/// leaked: Foundation's decoders ask for one in every keyed error, so `selection-differential` and
/// `selection-plist` "leak" 11–24 bytes per type within seconds. A dynamically linked binary does not show it. Any
/// other leak is still reported, so leak detection stays on for every target (`docs/FUZZING-AT-SCALE.md`).
/// LeakSanitizer calls this weak hook, when there is one, as it starts; elsewhere nothing calls it.
///
/// ```
/// $ ASAN_OPTIONS=detect_leaks=1 ./selection-differential -max_total_time=10   # no LeakSanitizer report
/// ```
@_cdecl("__lsan_default_suppressions")
public func leakSanitizerDefaultSuppressions() -> UnsafePointer<CChar> {
    UnsafeRawPointer(leakSuppressions.utf8Start).assumingMemoryBound(to: CChar.self)
}

/// The suppressions, one a line; a static string is stored with a terminating NUL.
let leakSuppressions: StaticString = "leak:swift_getTypeName\n"
