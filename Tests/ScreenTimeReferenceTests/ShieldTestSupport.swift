@testable import ScreenTimeReference

/// Readable tokens for shield tests: the token's bytes are the id's UTF-8, as in the vector format.
func app(_ id: String) -> ApplicationToken { ApplicationToken(bytes: Array("app:\(id)".utf8)) }
func cat(_ id: String) -> ActivityCategoryToken { ActivityCategoryToken(bytes: Array("cat:\(id)".utf8)) }
func web(_ id: String) -> WebDomainToken { WebDomainToken(bytes: Array("web:\(id)".utf8)) }

/// `count` distinct tokens of one kind, `prefix0`, `prefix1`, …
func numberedTokens<Kind: TokenKind>(_ count: Int, _ prefix: String) -> Set<Token<Kind>> {
    Set((0..<count).map { Token<Kind>(bytes: Array("\(prefix)\($0)".utf8)) })
}

/// Evaluation that must not throw in the test at hand; a throw records an issue through `#expect` at the call site.
func verdict(_ activity: ShieldActivity, _ stores: [ShieldSettings]) throws -> ShieldVerdict {
    try ShieldEvaluation.evaluate(activity, stores: stores)
}
