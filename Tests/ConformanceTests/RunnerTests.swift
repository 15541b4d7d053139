import StrictJSON
import Testing

@testable import Conformance

@Suite struct RunnerTests {
    @Test func outputMatchComparesOnlyNamedMembers() {
        let expect = Expectation.output(["a": 1, "b": ["x": [1, 2]]])
        #expect(Matcher.judge(expect, .output(["a": 1.0, "b": ["x": [1, 2]], "c": "extra"])).status == .pass)
        let (status, mismatch) = Matcher.judge(expect, .output(["a": 2, "b": ["x": [2, 1]]]))
        #expect(status == .fail)
        #expect(mismatch == "a: expected 1, got 2; b: expected {\"x\":[1,2]}, got {\"x\":[2,1]}")
        #expect(Matcher.judge(expect, .output(["b": ["x": [1, 2]]])).mismatch?.contains("a: missing") == true)
        #expect(Matcher.judge(.output([:]), .output(["anything": true])).status == .pass)
        #expect(Matcher.judge(expect, .error("empty")).status == .fail)
    }

    @Test func errorMatchNeedsTheSameCode() {
        #expect(Matcher.judge(.error("empty"), .error("empty")).status == .pass)
        #expect(Matcher.judge(.error("empty"), .error("base64")).status == .fail)
        #expect(Matcher.judge(.error("empty"), .output(["applications": 0])).status == .fail)
        #expect(Matcher.judge(.error("empty"), .unsupported).status == .unsupported)
        #expect(Matcher.judge(.error("empty"), .crash("x")).status == .crash)
        #expect(Matcher.judge(.error("empty"), .timeout(1)).status == .timeout)
        #expect(Matcher.judge(.error("empty"), .protocolViolation("x")).status == .protocol)
    }

    @Test func jsonEqualityIsByValue() {
        // Key order and number spelling do not matter; array order does.
        let a = try? JSONParser.value("{\"x\": 1e0, \"y\": {\"q\": [true, null], \"p\": \"s\"}}")
        let b = try? JSONParser.value("{\"y\": {\"p\": \"s\", \"q\": [true, null]}, \"x\": 1}")
        #expect(a != nil && a == b)
    }

    @Test func inProcessRunWithAFakeTable() throws {
        let suites = try Fixtures.load("basic.json")
        let runner = ConformanceRunner(suites: suites)
        let run = runner.run([(InProcessImplementation(name: "fake", perform: fakeTable), nil)])
        #expect(run.status("basic/echo") == .pass)
        #expect(run.status("basic/error") == .pass)
        #expect(run.status("basic/wrong-expectation") == .fail)
        #expect(run.status("basic/assumed") == .fail)
        #expect(run.status("basic/unknown-op") == .unsupported)
        #expect(!run.ok)
        #expect(run.counts(run.implementations[0], assumption: true).total == 1)
        #expect(run.counts(run.implementations[0], assumption: false)[.fail] == 1)
    }

    @Test func expectedFailuresAreStrictBothWays() throws {
        let suites = try Fixtures.load("basic.json")
        let runner = ConformanceRunner(suites: suites)
        let fake = InProcessImplementation(name: "fake", perform: fakeTable)
        // Listing exactly the failing cases makes the run pass.
        let exact = try ExpectedFailures.parse(
            "# known\nbasic/wrong-expectation\n  basic/assumed   # assumption differs\n\nbasic/unknown-op\n",
            file: "list.txt")
        #expect(runner.run([(fake, exact)]).ok)
        // A listed case that passes fails the run.
        let stale = try ExpectedFailures.parse(
            "basic/wrong-expectation\nbasic/assumed\nbasic/unknown-op\nbasic/echo\n", file: "l")
        let staleRun = runner.run([(fake, stale)])
        #expect(!staleRun.ok)
        #expect(staleRun.implementations[0].results[0].listed == .unexpectedPass)
        // An unknown id fails the run too.
        let unknown = try ExpectedFailures.parse(
            "basic/wrong-expectation\nbasic/assumed\nbasic/unknown-op\nno/such-case\n", file: "l")
        let unknownRun = runner.run([(fake, unknown)])
        #expect(!unknownRun.ok)
        #expect(unknownRun.implementations[0].unknownExpectedFailures.map(\.id) == ["no/such-case"])
        #expect(unknownRun.implementations[0].unknownExpectedFailures.map(\.line) == [4])
        // Missing one failing case fails the run.
        let partial = try ExpectedFailures.parse("basic/wrong-expectation\nbasic/assumed\n", file: "l")
        #expect(!runner.run([(fake, partial)]).ok)
    }

    @Test func expectedFailuresParseErrorsAndRepeats() throws {
        #expect(throws: ExpectedFailures.ParseError.self) { try ExpectedFailures.parse("a b\n", file: "f") }
        let list = try ExpectedFailures.parse("a\na # again\n", file: "f")
        #expect(list.repeats.map(\.line) == [2])
    }

    @Test func filtersSelectByGlob() throws {
        let suites = try Fixtures.load("basic.json", "resilience.json")
        #expect(ConformanceRunner(suites: suites, filters: ["basic/*"]).cases.count == 5)
        #expect(ConformanceRunner(suites: suites, filters: ["*/ok-?", "basic/echo"]).cases.count == 7)
        #expect(ConformanceRunner(suites: suites, filters: ["resilience/ok-[1-3]"]).cases.count == 3)
        #expect(ConformanceRunner(suites: suites, filters: ["resilience/ok-[!1-3]"]).cases.count == 3)
        #expect(ConformanceRunner(suites: suites, filters: ["nothing"]).cases.isEmpty)
        #expect(Glob("a*b*c").matches("aXbYbZc"))
        #expect(!Glob("a*b*c").matches("aXbYbZ"))
        #expect(Glob("[").matches("["))
        #expect(Glob("\\*").matches("*") && !Glob("\\*").matches("x"))
    }

    @Test func referenceAnswersUnknownOpsUnsupported() throws {
        let suites = try Fixtures.load("basic.json")
        let run = ConformanceRunner(suites: suites, filters: ["basic/unknown-op"]).run([
            (InProcessImplementation(), nil)
        ])
        #expect(run.status("basic/unknown-op") == .unsupported)
    }

    @Test func inProcessThroughput() throws {
        // Runner overhead per case (the fake table is trivial). Debug builds are far slower than release;
        // this guards against accidental quadratic behaviour, not the release target of 200k cases/s.
        var cases: [ConformanceCase] = []
        for i in 0..<50_000 {
            cases.append(
                ConformanceCase(
                    id: "perf/\(i)", suite: "perf", op: "test.echo", input: ["value": .number(Double(i))],
                    expect: .output(["value": .number(Double(i))])))
        }
        let runner = ConformanceRunner(suites: [Suite(name: "perf", cases: cases)])
        let start = ContinuousClock.now
        let run = runner.run([(InProcessImplementation(name: "fake", perform: fakeTable), nil)])
        let seconds = (ContinuousClock.now - start) / .seconds(1)
        #expect(run.ok)
        #expect(seconds < 5, "in-process: \(Int(Double(cases.count) / seconds)) cases/s")
    }
}
