/// The mutation operators: each makes one small change a test suite should notice.
///
/// Rules (after Offutt et al.'s sufficient operator set, and what PIT and mull call conditionals-boundary,
/// negate-conditionals, remove-conditionals, void-method-call and inline-constant):
/// - ``relational``: `<`↔`<=`, `>`↔`>=`, `==`↔`!=`, on binary operators written with spaces on both sides (the
///   formatter's style), never in type-level code (`where T == U`) or in an operator's declaration;
/// - ``boolean``: `&&`↔`||`, on the same terms;
/// - ``negateCondition``: `if c {` → `if !(c) {`, also `while c` and `guard c else`, when `c` is one Boolean
///   expression (no `,` clauses, no `let`/`case` binding) and not the literal `true` or `false` (the compiler
///   treats `while true` as endless, so its negation does not compile);
/// - ``removeGuard``: `guard c else { … }` removed (its condition made true; the condition is not evaluated);
/// - ``removeReturn``: an early `return` removed: one that is not its function's last statement nor a `guard`'s
///   exit, so that the function goes on after it;
/// - ``constant``: an integer literal moved up by one (not an enum case's raw value, not a capacity hint);
/// - ``emptyBranch``: the body of an `if` statement emptied, when the body does not end by leaving (those are
///   ``removeReturn``'s) and the `if` is a statement, not an expression that must produce a value.
///
/// ```swift
/// MutationOperator.relational.rawValue   // "relational", as in the stable id `File.swift:relational:…`
/// ```
public enum MutationOperator: String, Codable, Sendable, CaseIterable, Comparable {
    case relational
    case boolean
    case negateCondition = "negate-condition"
    case removeGuard = "remove-guard"
    case removeReturn = "remove-return"
    case constant
    case emptyBranch = "empty-branch"

    public static func < (lhs: Self, rhs: Self) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }

    /// The flipped relational or Boolean operator, `nil` for any other text.
    public static func flipped(_ text: String) -> String? {
        switch text {
        case "<": return "<="
        case "<=": return "<"
        case ">": return ">="
        case ">=": return ">"
        case "==": return "!="
        case "!=": return "=="
        case "&&": return "||"
        case "||": return "&&"
        default: return nil
        }
    }
}
