/// The sizes of the token universes shield generators draw from.
public struct ShieldUniverse: Sendable, Hashable {
    public var applications: Int
    public var categories: Int
    public var webDomains: Int
    public init(applications: Int = 4, categories: Int = 3, webDomains: Int = 4) {
        self.applications = applications
        self.categories = categories
        self.webDomains = webDomains
    }
    public static let small = ShieldUniverse()
}
