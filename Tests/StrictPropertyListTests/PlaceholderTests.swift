import Testing

@testable import StrictPropertyList

@Test func theModuleBuilds() {
    #expect(PropertyListLimits.maximumDepth == 32)
}
