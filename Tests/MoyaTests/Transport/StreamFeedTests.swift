import Foundation
import Testing

@testable import Moya

/// The order of a streamed body through the URLSession transport, alone: chunks wait while the
/// channel is full, in order, and the ending comes after the last of them.
@Suite("URLSession transport: stream feed")
struct StreamFeedTests {
    private typealias Feed = StreamFeed<String>

    private func chunk(_ text: String) -> Data { Data(text.utf8) }

    private func sent(_ action: Feed.Action) -> String? {
        if case .send(let data) = action { return String(decoding: data, as: UTF8.self) }
        return nil
    }

    private func finished(_ action: Feed.Action) -> String? {
        if case .finish(let ending) = action { return ending }
        return nil
    }

    @Test func chunksGoStraightThroughWhileTheChannelTakesThem() {
        var feed = Feed()
        #expect(sent(feed.received(chunk("a"))) == "a")
        #expect(sent(feed.sent(accepted: true)) == nil)
        #expect(sent(feed.received(chunk("b"))) == "b")
        #expect(finished(feed.sent(accepted: true)) == nil)
        #expect(finished(feed.ended("done")) == "done")
    }

    @Test func chunksArrivingWhileTheChannelIsFullWaitAndFollowInOrder() {
        var feed = Feed()
        #expect(sent(feed.received(chunk("a"))) == "a")
        _ = feed.sent(accepted: false)
        #expect(sent(feed.received(chunk("b"))) == nil)
        #expect(sent(feed.received(chunk("c"))) == nil)
        #expect(feed.backlog == 2)
        #expect(sent(feed.resumed()) == "b")
        #expect(sent(feed.sent(accepted: true)) == "c")
        #expect(sent(feed.sent(accepted: true)) == nil)
        #expect(feed.backlog == 0)
    }

    @Test func theEndingWaitsBehindTheChunksAndComesOnce() {
        var feed = Feed()
        _ = feed.received(chunk("a"))
        _ = feed.sent(accepted: false)
        _ = feed.received(chunk("b"))
        #expect(finished(feed.ended("failed")) == nil)
        #expect(sent(feed.resumed()) == "b")
        #expect(finished(feed.sent(accepted: true)) == "failed")
        #expect(finished(feed.resumed()) == nil)
        #expect(finished(feed.ended("again")) == nil)
        #expect(sent(feed.received(chunk("late"))) == nil)
    }
}
