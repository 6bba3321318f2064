import Foundation
import Hummingbird
import LoopbackServer
import Moya
import MoyaTesting
import NIOCore
import Testing

/// Streams in MoyaTesting: a sample stream stubs `events(_:)` without a server, and the
/// recorder records a stream as its chunks and replays it chunk by chunk.
@Suite("Stubbing and recording streams")
struct StreamRecordingTests {
    private struct Feed: TargetType {
        var baseURL: URL
        var path: String { "/feed" }
        var method: Moya.Method { .get }
        var task: Moya.Task { .requestPlain }
        var headers: [String: String]? { nil }
    }

    @Test func aSampleStreamStubsEventsWithoutAServer() async throws {
        let events = [ServerSentEvent(data: "Hello"), ServerSentEvent(event: "done", data: "world")]
        let provider = MoyaProvider<Feed>(
            endpointClosure: { target in
                MoyaProvider.defaultEndpointMapping(for: target)
                    .replacing(sampleStream: .events(events, interval: 0.001))
            },
            stubClosure: MoyaProvider.immediatelyStub
        )
        var received: [ServerSentEvent] = []
        for try await event in provider.events(Feed(baseURL: TestServer.unreachableBaseURL)) {
            received.append(event)
        }
        #expect(received == events)
    }

    @Test(.timeLimit(.minutes(1)))
    func aRecordedStreamIsReplayedChunkByChunk() async throws {
        let folder = try TemporaryDirectory()
        let parts = ["data: one\n\n", "data: tw", "o\n\n"]
        let server = try await TestServer.start { router in
            router.get("feed") { _, _ in
                Hummingbird.Response(
                    status: .ok,
                    headers: [.contentType: "text/event-stream"],
                    body: ResponseBody { writer in
                        for part in parts {
                            try await writer.write(ByteBuffer(string: part))
                        }
                        try await writer.finish(nil)
                    }
                )
            }
        }

        let recording = MoyaProvider<Feed>(recorder: Recorder(directory: folder.url, mode: .record))
        var live: [String] = []
        for try await event in recording.events(Feed(baseURL: server.baseURL)) {
            live.append(event.data)
        }
        #expect(live == ["one", "two"])
        #expect(folder.files().count == 1)

        let replaying = MoyaProvider<Feed>(recorder: Recorder(directory: folder.url, mode: .replay))
        let streamed = try await replaying.stream(Feed(baseURL: server.baseURL))
        #expect(streamed.response?.value(forHTTPHeaderField: "Content-Type") == "text/event-stream")
        var chunks: [String] = []
        for try await chunk in streamed.chunks {
            chunks.append(String(decoding: chunk, as: UTF8.self))
        }
        // The server may coalesce writes; what arrived is what is replayed, in the same order.
        #expect(chunks.joined() == parts.joined())
        #expect(!chunks.isEmpty)
        // A plain request replays the joined body.
        let joined = try await replaying.request(Feed(baseURL: server.baseURL))
        #expect(String(decoding: joined.data, as: UTF8.self) == parts.joined())
    }
}
