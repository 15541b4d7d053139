/// The runtime half of the mutant schema: one Swift file added to the lowest module of the copy
/// (`StrictJSON`, which every module of the reference imports), declaring the switches the rewritten sources
/// call.
///
/// Rules:
/// - `STC_MUTANT` (read once) names the one mutant that is on; 0 or unset is the original program;
/// - with `STC_MUTANT_COVERAGE=DIR` each process writes the numbers of the switches it reached to
///   `DIR/<pid>.hits` when it exits, which is how a clean run learns which mutants its tests reach;
/// - a switched operator evaluates its operands once and in the original order, and `&&`/`||` keep their
///   short-circuit (the right side is an autoclosure, `rethrows` as in the standard library);
/// - the comparison switch is split in two operators, `l ^^| n ^<^ r`: the first, between `??` and the
///   comparisons in precedence, pairs the left operand with the mutant's number; the second, in
///   `ComparisonPrecedence`, compares. So the rewritten expression groups exactly as the original, whatever is
///   on either side, and the rewriter never needs to know where an operand ends. `&&` and `||` use their own
///   precedence groups for both halves (left-associative, like the originals);
/// - a literal moved past its type's range exits with ``unviableExitStatus``: that mutant would not compile.
///
/// ```swift
/// // if count ^^| 12 ^<^ limit { … }      (was: if count < limit { … })
/// ```
public enum SchemaRuntime {
    /// The exit status of a process whose mutant turned out not to fit its type at run time.
    public static let unviableExitStatus: Int32 = 86

    /// The file's name in the copy's `Sources/StrictJSON`.
    public static let fileName = "_STCMutationSchema.swift"

    /// The module that holds the runtime; files of other modules import it.
    public static let module = "StrictJSON"

    /// The runtime's source for a build with mutants numbered 1…`count`.
    public static func source(count: Int) -> String {
        let relational = [("<", "<="), ("<=", "<"), (">", ">="), (">=", ">")].map { original, mutated in
            comparison("^\(original)^", original: original, mutated: mutated, protocolName: "Comparable")
        }
        let equality = [("==", "!="), ("!=", "==")].map { original, mutated in
            comparison("^\(original)^", original: original, mutated: mutated, protocolName: "Equatable")
                + """
                @inline(__always) public func ^\(original)^ <T>(l: _STCPending<T?>, r: _OptionalNilComparisonType) -> Bool {
                    _STCMutation.on(l.id) ? l.value \(mutated) nil : l.value \(original) nil
                }

                """
        }
        return header(count: count) + relational.joined() + equality.joined() + logical
    }

    static func comparison(_ name: String, original: String, mutated: String, protocolName: String) -> String {
        """
        @inline(__always) public func \(name) <T: \(protocolName)>(l: _STCPending<T>, r: T) -> Bool {
            _STCMutation.on(l.id) ? l.value \(mutated) r : l.value \(original) r
        }
        @_disfavoredOverload @inline(__always)
        public func \(name) <A: BinaryInteger, B: BinaryInteger>(l: _STCPending<A>, r: B) -> Bool {
            _STCMutation.on(l.id) ? l.value \(mutated) r : l.value \(original) r
        }
        @_disfavoredOverload @inline(__always)
        public func \(name) <A: StringProtocol, B: StringProtocol>(l: _STCPending<A>, r: B) -> Bool {
            _STCMutation.on(l.id) ? l.value \(mutated) r : l.value \(original) r
        }

        """
    }

    static func header(count: Int) -> String {
        """
        // Written by `lab mutate` into its copy of the package: the runtime of the mutant schema.
        #if canImport(Glibc)
            import Glibc
        #elseif canImport(Darwin)
            import Darwin
        #endif

        public enum _STCMutation {
            public static let count = \(count)

            /// The mutant that is on in this process (STC_MUTANT); 0 for none.
            public static let active: Int = {
                guard let value = getenv("STC_MUTANT") else { return 0 }
                return Int(String(cString: value)) ?? 0
            }()

            nonisolated(unsafe) static let hits: UnsafeMutablePointer<UInt8> = {
                let pointer = UnsafeMutablePointer<UInt8>.allocate(capacity: count + 1)
                pointer.initialize(repeating: 0, count: count + 1)
                return pointer
            }()

            static let recording: Bool = {
                guard getenv("STC_MUTANT_COVERAGE") != nil else { return false }
                atexit { _STCMutation.writeHits() }
                return true
            }()

            static func writeHits() {
                guard let directory = getenv("STC_MUTANT_COVERAGE"), count > 0 else { return }
                let path = String(cString: directory) + "/" + String(getpid()) + ".hits"
                guard let file = fopen(path, "w") else { return }
                for id in 1...count where hits[id] != 0 { fputs("\\(id)\\n", file) }
                fclose(file)
            }

            /// Whether mutant `id` is on; records that it was reached.
            @inline(__always) public static func on(_ id: Int) -> Bool {
                if recording { hits[id] = 1 }
                return active == id
            }

            @inline(__always) public static func negate(_ id: Int, _ condition: Bool) -> Bool {
                on(id) ? !condition : condition
            }

            public static func plusOne<T: FixedWidthInteger>(_ id: Int, _ value: T) -> T {
                guard on(id) else { return value }
                let (moved, overflow) = value.addingReportingOverflow(1)
                if overflow { exit(\(unviableExitStatus)) }
                return moved
            }
        }

        public struct _STCPending<T> {
            public let value: T
            public let id: Int
            @inline(__always) public init(_ value: T, _ id: Int) {
                self.value = value
                self.id = id
            }
        }

        precedencegroup _STCOpenComparison {
            higherThan: ComparisonPrecedence
            lowerThan: NilCoalescingPrecedence
        }
        infix operator ^^| : _STCOpenComparison
        infix operator ^&| : LogicalConjunctionPrecedence
        infix operator ^|| : LogicalDisjunctionPrecedence
        infix operator ^<^ : ComparisonPrecedence
        infix operator ^<=^ : ComparisonPrecedence
        infix operator ^>^ : ComparisonPrecedence
        infix operator ^>=^ : ComparisonPrecedence
        infix operator ^==^ : ComparisonPrecedence
        infix operator ^!=^ : ComparisonPrecedence
        infix operator ^&&^ : LogicalConjunctionPrecedence
        infix operator ^||^ : LogicalDisjunctionPrecedence

        @inline(__always) public func ^^| <T>(lhs: T, id: Int) -> _STCPending<T> { _STCPending(lhs, id) }
        @inline(__always) public func ^&| (lhs: Bool, id: Int) -> _STCPending<Bool> { _STCPending(lhs, id) }
        @inline(__always) public func ^|| (lhs: Bool, id: Int) -> _STCPending<Bool> { _STCPending(lhs, id) }


        """
    }

    static let logical = """
        @inline(__always)
        public func ^&&^ (l: _STCPending<Bool>, r: @autoclosure () throws -> Bool) rethrows -> Bool {
            if _STCMutation.on(l.id) { return try l.value ? true : r() }
            return try l.value ? r() : false
        }
        @inline(__always)
        public func ^||^ (l: _STCPending<Bool>, r: @autoclosure () throws -> Bool) rethrows -> Bool {
            if _STCMutation.on(l.id) { return try l.value ? r() : false }
            return try l.value ? true : r()
        }

        """
}
