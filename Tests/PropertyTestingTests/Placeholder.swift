import Testing
import PropertyTesting
@Test func placeholder() {}
