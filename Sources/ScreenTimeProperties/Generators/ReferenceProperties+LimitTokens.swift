import ScreenTimeReference

extension ReferenceProperties {
    /// The token sets `limitScenario` assigns: universe tokens `offset ..< offset + size` for every offset in
    /// `0...8` and size in `45...55`, made once (a set of 50 tokens is 50 hashes of up to 172 characters).
    enum LimitTokens {
        static let offsets = 0...8, sizes = 45...55
        static func key(offset: Int, size: Int) -> Int {
            (offset - offsets.lowerBound) * sizes.count + (size - sizes.lowerBound)
        }
        static func table<Kind: TokenKind>(_ kind: Kind.Type) -> [Set<Token<Kind>>] {
            offsets.flatMap { offset in
                sizes.map { size in Set((0..<size).map { TokenUniverse.token(offset + $0, Kind.self) }) }
            }
        }
        static let applications = table(Application.self)
        static let categories = table(ActivityCategory.self)
        static let webDomains = table(WebDomain.self)
    }
}
