import Testing

@testable import Conformance

@Suite struct VectorAuthoringTests {
    @Test func defaultIdsAreStable() {
        let a = VectorAuthoring.defaultId(suite: "s", op: "url.encode", input: ["text": "x"])
        #expect(a == VectorAuthoring.defaultId(suite: "s", op: "url.encode", input: ["text": "x"]))
        #expect(a != VectorAuthoring.defaultId(suite: "s", op: "url.encode", input: ["text": "y"]))
        #expect(a.hasPrefix("s/url-encode-") && a.count == "s/url-encode-".count + 8)
    }
}
