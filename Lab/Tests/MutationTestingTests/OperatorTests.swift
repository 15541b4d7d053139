import Testing

@testable import MutationTesting

/// Each operator on a small snippet: where it applies, and where its rule says it must not.
@Suite struct OperatorTests {
    func mutants(_ source: String, _ op: MutationOperator? = nil) throws -> [Mutant] {
        try MutantFinder.mutants(in: source, file: "Sources/M/F.swift").filter {
            op == nil || $0.mutationOperator == op
        }
    }

    func changes(_ source: String, _ op: MutationOperator) throws -> [String] {
        try mutants(source, op).map { "\($0.line): \($0.original) → \($0.replacement)" }
    }

    @Test func relationalFlipsOnlySpacedBinaryOperators() throws {
        let source = """
            func f<T: Comparable>(a: T, b: T, c: [Int]) -> Bool where T == T.Magnitude {
                let x = Array<Int>()
                return a < b || a >= b && c.count != 0 && x == c
            }
            static func < (l: S, r: S) -> Bool { l.v <= r.v }
            """
        #expect(
            try changes(source, .relational) == ["3: < → <=", "3: >= → >", "3: != → ==", "3: == → !=", "5: <= → <"])
    }

    @Test func booleanFlipsAndAndOr() throws {
        #expect(try changes("let v = a && b || c", .boolean) == ["1: && → ||", "1: || → &&"])
    }

    @Test func negateConditionNeedsOneBooleanExpression() throws {
        let source = """
            if a < b { f() }
            if let x = y { f() }
            if a, b { f() }
            while try more() { f() }
            guard ready else { return }
            if #available(macOS 14, *) { f() }
            """
        #expect(
            try changes(source, .negateCondition) == [
                "1: if a < b → if !(a < b)", "4: while more() → while !(more())", "5: guard ready → guard !(ready)",
            ])
    }

    @Test func removeGuardMakesItsConditionTrue() throws {
        let source = """
            func f(_ n: Int) -> Int {
                guard n > 0 else { return 0 }
                guard let m = Optional(n) else { return 1 }
                return m
            }
            """
        #expect(try changes(source, .removeGuard) == ["2: guard n > 0 else → guard true else"])
    }

    @Test func removeReturnTakesOnlyEarlyReturns() throws {
        let source = """
            func f(_ xs: [Int]) -> Int {
                guard !xs.isEmpty else { return 0 }
                for x in xs {
                    if x > 9 { return x }
                }
                if xs.count == 1 { return 1 }
                switch xs.count {
                case 2: return 2
                default: break
                }
                if xs.count == 3 { return 3 } else { return 4 }
            }
            func g(_ b: Bool) -> Int {
                if b { return 1 }
                return 2
            }
            """
        #expect(
            try changes(source, .removeReturn) == [
                "4: return x → (removed)", "6: return 1 → (removed)", "8: return 2 → (removed)",
                "14: return 1 → (removed)",
            ])
    }

    @Test func constantMovesUpByOneInItsNotation() throws {
        let source = """
            enum E: Int { case a = 7 }
            func f() -> Int {
                var a: [Int] = []
                a.reserveCapacity(16)
                let t = (1, 0x1F)
                return t.0 + 0b11 + 9
            }
            """
        #expect(
            try changes(source, .constant) == ["5: 1 → 2", "5: 0x1F → 0x20", "6: 0b11 → 0b100", "6: 9 → 10"])
    }

    @Test func emptyBranchTakesIfStatementsThatDoNotLeave() throws {
        let source = """
            func f(_ b: Bool) -> Int {
                var n = 0
                if b { n += 1 }
                if !b { return n }
                let v = if b { 1 } else { 2 }
                if n > 1 {
                    n = 0
                } else if n == 0 {
                    n = 2
                }
                return n + v
            }
            """
        #expect(
            try changes(source, .emptyBranch) == ["3: { n += 1 } → { }", "6: { n = 0 } → { }", "8: { n = 2 } → { }"])
    }

    @Test func typeLevelCodeHasNoOperators() throws {
        let source = """
            extension Collection where Element == UInt8, Index == Int {
                typealias Pair = (Int, Int)
                func same<C: Collection>(_ c: C) -> Bool where C.Element == Element { count == c.count }
            }
            """
        #expect(try changes(source, .relational) == ["3: == → !="])
    }
}
