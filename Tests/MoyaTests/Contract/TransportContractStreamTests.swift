import Foundation
import Hummingbird
import LoopbackServer
import NIOCore
import Testing

@testable import Moya

/// Streamed responses and server-sent events, the same through every transport: the head first,
/// every chunk once and in order, plugins told once, and leaving the stream ends the request.
@Suite("Transport contract: streams and server-sent events")
struct TransportContractStreamTests {
    @Test(.timeLimit(.minutes(1)), arguments: TransportUnderTest.allCases)
    func theHeadComesFirstThenEveryChunkInOrderAndPluginsHearTheEndOnce(_ transport: TransportUnderTest) async throws {
        let parts = (1...20).map { "part \($0);" }
        try await TestServer.with({ router in
            router.get("parts") { _, _ in
                Hummingbird.Response(
                    status: .accepted,
                    headers: [.contentType: "text/plain"],
                    body: ResponseBody { writer in
                        for part in parts {
                            try await writer.write(ByteBuffer(string: part))
                        }
                        try await writer.finish(nil)
                    }
                )
            }
        }) { server in
            let plugin = StreamPluginRecorder()
            let provider = transport.provider(plugins: [plugin])
            let streamed = try await provider.stream(DynamicTarget(baseURL: server.baseURL, path: "/parts"))
            #expect(streamed.statusCode == 202)
            #expect(streamed.response?.value(forHTTPHeaderField: "Content-Type") == "text/plain")
            #expect(streamed.request?.url?.path == "/parts")

            var body = Data()
            for try await chunk in streamed.chunks {
                body.append(chunk)
            }
            #expect(String(decoding: body, as: UTF8.self) == parts.joined())
            let result = await plugin.nextResult()
            guard case .success(let head)? = result else {
                Issue.record("expected the head, got \(String(describing: result))")
                return
            }
            #expect(head.statusCode == 202)
            #expect(head.data.isEmpty)
            #expect(plugin.log.all == ["willSend", "didReceive"])
        }
    }

    @Test(.timeLimit(.minutes(1)), arguments: TransportUnderTest.allCases)
    func breakingOutOfTheLoopEndsTheRequestAndTheServerSeesTheConnectionClose(
        _ transport: TransportUnderTest
    ) async throws {
        let (closed, closedContinuation) = AsyncStream<Void>.makeStream()
        try await TestServer.with({ router in
            router.get("endless") { _, _ in endlessResponse(closed: closedContinuation) }
        }) { server in
            let plugin = StreamPluginRecorder()
            let provider = transport.provider(plugins: [plugin])
            let streamed = try await provider.stream(DynamicTarget(baseURL: server.baseURL, path: "/endless"))
            var received = 0
            for try await chunk in streamed.chunks {
                received += chunk.count
                if received > 100_000 { break }
            }
            // Only a closed connection ends the server's loop.
            for await _ in closed { break }
            let result = await plugin.nextResult()
            guard case .failure(let error)? = result else {
                Issue.record("expected the cancelled error, got \(String(describing: result))")
                return
            }
            #expect(error.isCancellation)
        }
    }

    @Test(.timeLimit(.minutes(1)), arguments: TransportUnderTest.allCases)
    func serverSentEventsArriveParsed(_ transport: TransportUnderTest) async throws {
        try await TestServer.with({ router in
            router.get("feed") { _, _ in
                // Split mid-line on purpose.
                eventStreamResponse(["event: greet\nid: 1\nda", "ta: hello\n\n", "data: {\"n\":2}\n\n"])
            }
        }) { server in
            var events: [ServerSentEvent] = []
            for try await event in transport.provider().events(DynamicTarget(baseURL: server.baseURL, path: "/feed")) {
                events.append(event)
            }
            #expect(
                events == [
                    ServerSentEvent(event: "greet", data: "hello", id: "1"),
                    ServerSentEvent(data: "{\"n\":2}", id: "1"),
                ]
            )
        }
    }
}
