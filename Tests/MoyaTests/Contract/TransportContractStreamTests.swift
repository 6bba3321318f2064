import Foundation
import Hummingbird
import LoopbackServer
import NIOCore
import Testing

@testable import Moya

/// Streamed responses and server-sent events, the same through every transport: every chunk
/// arrives once and in order, and leaving the stream ends the request.
@Suite("Transport contract: streams and server-sent events")
struct TransportContractStreamTests {
    @Test(.timeLimit(.minutes(1)), arguments: TransportUnderTest.allCases)
    func aStreamedBodyArrivesWholeAndInOrderAfterItsHead(_ transport: TransportUnderTest) async throws {
        let parts = (0..<50).map { "part \($0);" }
        try await TestServer.with({ router in
            router.get("parts") { _, _ in
                Hummingbird.Response(
                    status: .ok,
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
            let streamed = try await transport.provider().stream(DynamicTarget(baseURL: server.baseURL, path: "/parts"))
            #expect(streamed.statusCode == 200)
            var body = Data()
            for try await chunk in streamed.chunks {
                body.append(chunk)
            }
            #expect(String(decoding: body, as: UTF8.self) == parts.joined())
        }
    }

    @Test(.timeLimit(.minutes(1)), arguments: TransportUnderTest.allCases)
    func leavingAnEndlessStreamClosesTheConnection(_ transport: TransportUnderTest) async throws {
        let (closed, closedContinuation) = AsyncStream<Void>.makeStream()
        try await TestServer.with({ router in
            router.get("endless") { _, _ in endlessResponse(closed: closedContinuation) }
        }) { server in
            let streamed = try await transport.provider().stream(
                DynamicTarget(baseURL: server.baseURL, path: "/endless")
            )
            var received = 0
            for try await chunk in streamed.chunks {
                received += chunk.count
                if received > 10_000 { break }
            }
            #expect(received > 10_000)
            // The server's writes fail only once the client closed the connection.
            for await _ in closed { break }
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
