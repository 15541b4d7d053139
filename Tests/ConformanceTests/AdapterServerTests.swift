import StrictJSON
import Testing

@testable import Conformance

/// The server's framing, fed in pieces as reads deliver them.
@Suite struct AdapterServerTests {
    func serve(_ chunks: [String], lineLimit: Int = AdapterServer.maximumLineLength) -> [String] {
        var server = AdapterServer(lineLimit: lineLimit)
        var out: [UInt8] = []
        for chunk in chunks {
            Array(chunk.utf8).withUnsafeBufferPointer { server.feed($0) { out.append(contentsOf: $0) } }
        }
        server.finish { out.append(contentsOf: $0) }
        return String(decoding: out, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            .map(String.init)
    }

    @Test func aLineOverTheLimitIsAProtocolErrorAndTheNextLineIsServed() {
        let long = #"{"id":"long","op":"url.encode","input":{"text":""# + String(repeating: "x", count: 200) + #""}}"#
        let next = #"{"id":"next","op":"url.encode","input":{"text":"a b"}}"#
        // The long line arrives in three reads, so the limit is crossed in the middle of a line.
        let answers = serve(
            [String(long.prefix(60)), String(long.dropFirst(60)) + "\n" + next.prefix(10), next.dropFirst(10) + "\n"],
            lineLimit: 100)
        #expect(answers == [#"{"error":"protocol","id":null}"#, #"{"id":"next","output":{"encoded":"a%20b"}}"#])
    }

    @Test func linesSplitAcrossReadsAndALastLineWithoutNewlineAreAnswered() {
        let answers = serve([
            #"{"id":1,"op":"url.en"#, #"code","input":{"text":"é"}}"# + "\r\n" + #"{"id":2,"op":"x","input":{}}"#,
        ])
        #expect(answers == [#"{"id":1,"output":{"encoded":"%C3%A9"}}"#, #"{"id":2,"unsupported":true}"#])
    }
}
