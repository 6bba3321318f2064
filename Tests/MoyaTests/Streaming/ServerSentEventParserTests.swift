import Foundation
import Moya
import Testing

/// The event-stream parser alone, against the WHATWG HTML standard's rules.
@Suite("Server-sent event parser")
struct ServerSentEventParserTests {
    /// Parses `text` in one chunk, then ends the stream.
    private func parse(_ text: String) throws -> [ServerSentEvent] {
        try parse(bytes: Array(text.utf8))
    }

    private func parse(bytes: [UInt8]) throws -> [ServerSentEvent] {
        var parser = ServerSentEventParser()
        let events = try parser.parse(bytes)
        parser.finish()
        return events
    }

    /// Parses `bytes` split into chunks at every given offset.
    private func parse(bytes: [UInt8], splitAt offsets: [Int]) throws -> [ServerSentEvent] {
        var parser = ServerSentEventParser()
        var events: [ServerSentEvent] = []
        var start = 0
        for offset in offsets + [bytes.count] {
            events += try parser.parse(Array(bytes[start..<offset]))
            start = offset
        }
        return events
    }

    @Test func dataLinesAreJoinedWithLineFeedsAndTheTypeDefaultsToMessage() throws {
        let events = try parse("data: first\ndata: second\n\n")
        #expect(events == [ServerSentEvent(event: "message", data: "first\nsecond")])
    }

    @Test func eventIDAndRetryFieldsAreRead() throws {
        let events = try parse("event: update\nid: 42\nretry: 2500\ndata: {\"n\":1}\n\n")
        #expect(events == [ServerSentEvent(event: "update", data: "{\"n\":1}", id: "42", retry: 2500)])
    }

    @Test func theIDCarriesOverToLaterEventsUntilReset() throws {
        let events = try parse("id: 7\ndata: a\n\ndata: b\n\nid\ndata: c\n\n")
        #expect(events.map(\.id) == ["7", "7", nil])
    }

    @Test func anIDHoldingNULIsIgnored() throws {
        let events = try parse("id: 1\n\nid: 2\u{0}x\ndata: a\n\n")
        #expect(events.map(\.id) == ["1"])
    }

    @Test func commentsUnknownFieldsAndEventsWithoutDataDispatchNothing() throws {
        let events = try parse(": heartbeat\nfoo: bar\nevent: ping\n\n:\n\ndata: kept\n\n")
        #expect(events == [ServerSentEvent(data: "kept")])
    }

    @Test func anEventTypeDoesNotLeakIntoTheNextEvent() throws {
        let events = try parse("event: ping\n\ndata: x\n\n")
        #expect(events == [ServerSentEvent(data: "x")])
    }

    @Test func onlyOneLeadingSpaceOfAValueIsRemoved() throws {
        let events = try parse("data:no space\n\ndata:  two spaces\n\ndata\n\n")
        #expect(events.map(\.data) == ["no space", " two spaces", ""])
    }

    @Test func retryNeedsASCIIDigitsOnly() throws {
        var parser = ServerSentEventParser()
        _ = try parser.parse(Array("retry: 1000\n\nretry: 12a\n\nretry: -5\n\nretry:\n\n".utf8))
        #expect(parser.reconnectionTime == 1000)
        _ = try parser.parse(Array("retry: 99999999999999999999999999\n\n".utf8))
        #expect(parser.reconnectionTime == Int.max)
    }

    @Test(arguments: ["\n", "\r", "\r\n"])
    func everyLineEndIsAccepted(lineEnd: String) throws {
        let text = ["event: e", "data: one", "data: two", "", "data: three", "", ""].joined(separator: lineEnd)
        let events = try parse(text)
        #expect(events == [ServerSentEvent(event: "e", data: "one\ntwo"), ServerSentEvent(data: "three")])
    }

    @Test func aCRLFSplitBetweenChunksIsOneLineEnd() throws {
        let bytes = Array("data: a\r\n\r\ndata: b\r\n\r\n".utf8)
        // Splitting right after each CR must not read the LF as a second, empty line.
        let events = try parse(bytes: bytes, splitAt: [8, 10, 19, 21])
        #expect(events == [ServerSentEvent(data: "a"), ServerSentEvent(data: "b")])
    }

    @Test func aLeadingByteOrderMarkIsSkippedOnce() throws {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        #expect(try parse(bytes: bom + Array("data: x\n\n".utf8)) == [ServerSentEvent(data: "x")])
        // A second mark is text: it becomes part of the first field's name, which is unknown.
        #expect(try parse(bytes: bom + bom + Array("data: x\n\n".utf8)) == [])
        // Split byte by byte.
        let split = try parse(bytes: bom + Array("data: y\n\n".utf8), splitAt: [1, 2, 3])
        #expect(split == [ServerSentEvent(data: "y")])
    }

    @Test func theStartOfAByteOrderMarkThatIsNotOneStaysText() throws {
        // EF BB followed by something else: the bytes are kept and decoded as invalid UTF-8.
        let bytes: [UInt8] = [0xEF, 0xBB] + Array("\ndata: z\n\n".utf8)
        #expect(try parse(bytes: bytes, splitAt: [1, 2]) == [ServerSentEvent(data: "z")])
        let inData = Array("data: ".utf8)
        let events = try parse(bytes: [0xEF] + [0x0A] + inData + [0xEF, 0xBB, 0x41, 0x0A, 0x0A], splitAt: [1])
        #expect(events == [ServerSentEvent(data: "\u{FFFD}A")])
    }

    @Test func utf8SplitBetweenChunksIsDecodedWhole() throws {
        let bytes = Array("data: héllo 🌍\n\n".utf8)
        for offset in 1..<bytes.count {
            #expect(try parse(bytes: bytes, splitAt: [offset]) == [ServerSentEvent(data: "héllo 🌍")])
        }
    }

    @Test func invalidUTF8BecomesReplacementCharacters() throws {
        let events = try parse(bytes: Array("data: a".utf8) + [0xFF, 0xC3] + Array("b\n\n".utf8))
        #expect(events == [ServerSentEvent(data: "a\u{FFFD}\u{FFFD}b")])
    }

    @Test func anEventWithoutItsFinalEmptyLineIsDiscardedAtTheEnd() throws {
        var parser = ServerSentEventParser()
        #expect(try parser.parse(Array("data: complete\n\ndata: cut".utf8)) == [ServerSentEvent(data: "complete")])
        parser.finish()
        #expect(try parser.parse(Array("\n\n".utf8)) == [])
    }

    @Test func theLastEventIDIsSetAtDispatchAndSurvivesFinish() throws {
        var parser = ServerSentEventParser()
        _ = try parser.parse(Array("id: 3\ndata: a\n\nid: 4\n".utf8))
        // `id: 4` was never dispatched.
        #expect(parser.lastEventID == "3")
        parser.finish()
        #expect(parser.lastEventID == "3")
        #expect(try parser.parse(Array("data: b\n\n".utf8)) == [ServerSentEvent(data: "b")])
    }

    @Test func anEventLargerThanTheLimitThrowsInsteadOfGrowing() throws {
        var parser = ServerSentEventParser(maximumEventSize: 64)
        let growing = #expect(throws: MoyaClientError.self) {
            for _ in 0..<10 {
                _ = try parser.parse(Array("data: 0123456789\n".utf8))
            }
        }
        #expect(growing?.code == .eventTooLarge)
        #expect(growing?.limit == 64)
        var lines = ServerSentEventParser(maximumEventSize: 64)
        let longLine = #expect(throws: MoyaClientError.self) {
            _ = try lines.parse(Array(repeating: UInt8(ascii: "x"), count: 65))
        }
        #expect(longLine?.code == .eventTooLarge)
    }

    @Test func everySplitGivesTheSameEventsAsOneChunk() throws {
        let text = "\u{FEFF}: c\r\nevent: a\rid: 1\r\ndata: x\n\ndata: é\r\rretry: 5\ndata\n\n"
        let bytes = Array(text.utf8)
        let whole = try parse(bytes: bytes)
        #expect(whole.count == 3)
        for first in 0...bytes.count {
            for second in first...bytes.count where second - first <= 3 {
                #expect(try parse(bytes: bytes, splitAt: [first, second]) == whole)
            }
        }
    }

    @Test func theWireRepresentationReadsBackAsTheSameEvent() throws {
        // The ID goes last: it would carry over to the events after it.
        let events = [
            ServerSentEvent(data: "plain"),
            ServerSentEvent(data: " leading space"),
            ServerSentEvent(data: ""),
            ServerSentEvent(event: "update", data: "two\nlines", id: "9", retry: 100),
        ]
        let text = events.map(\.wireRepresentation).joined()
        #expect(try parse(text) == events)
    }

    /// Found by `FuzzServerSentEvents`: an ID holding a form feed was left out when written.
    @Test func anIDWithAFormFeedOrOtherSeparatorsIsWrittenAndReadBack() throws {
        let event = ServerSentEvent(data: "o", id: "1\u{FFFD}{=\u{0C}\u{0B}\u{2028}\u{85}}")
        #expect(try parse(event.wireRepresentation) == [event])
    }

    @Test func decodeMapsTheDataAndThrowsObjectMapping() throws {
        struct Message: Decodable, Equatable { var text: String }
        #expect(try ServerSentEvent(data: #"{"text":"hi"}"#).decode(Message.self) == Message(text: "hi"))
        #expect {
            try ServerSentEvent(data: "not json").decode(Message.self)
        } throws: { error in
            guard case .objectMapping(_, let response) = error as? MoyaError else { return false }
            return response.data == Data("not json".utf8)
        }
    }
}
