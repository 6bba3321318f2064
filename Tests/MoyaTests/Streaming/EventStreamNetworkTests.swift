import Foundation
import HTTPTypes
import Hummingbird
import LoopbackServer
import Moya
import NIOCore
import Testing

/// `events(_:reconnect:)` against a real server: parsing, decoding, reconnection with
/// `Last-Event-ID` under a bounded policy, `204`, and an endless stream left midway.
@Suite("Server-sent events over the network")
struct EventStreamNetworkTests {
    private static let lastEventID = HTTPField.Name("Last-Event-ID")!

    @Test(.timeLimit(.minutes(1)))
    func eventsArriveParsedWithTheirFieldsAndTheRequestAcceptsEventStreams() async throws {
        let accept = Synchronized<String?>(nil)
        try await TestServer.with({ router in
            router.get("feed") { request, _ in
                accept.update { $0 = request.headers[.accept] }
                // Split mid-line, mid-character and mid-CRLF on purpose.
                return eventStreamResponse([
                    "\u{FEFF}: hello\r\nevent: greet\r\nid: 1\r\nda", "ta: line one\r\ndata: héllo\r", "\n\r\n",
                    "retry: 1500\ndata: {\"text\":\"hi\"}\n\n",
                ])
            }
        }) { server in
            let provider = MoyaProvider<DynamicTarget>()
            var events: [ServerSentEvent] = []
            for try await event in provider.events(DynamicTarget(baseURL: server.baseURL, path: "/feed")) {
                events.append(event)
            }
            #expect(
                events == [
                    ServerSentEvent(event: "greet", data: "line one\nhéllo", id: "1"),
                    ServerSentEvent(data: "{\"text\":\"hi\"}", id: "1", retry: 1500),
                ]
            )
            #expect(accept.update { $0 } == "text/event-stream")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func eventDataDecodesInOneCall() async throws {
        struct Token: Decodable, Equatable { var text: String }
        try await TestServer.with({ router in
            router.get("chat") { _, _ in
                eventStreamResponse(["data: {\"text\":\"Hel\"}\n\n", "data: {\"text\":\"lo\"}\n\n"])
            }
        }) { server in
            let provider = MoyaProvider<DynamicTarget>()
            var tokens: [Token] = []
            for try await token in provider.events(DynamicTarget(baseURL: server.baseURL, path: "/chat"))
                .decode(Token.self)
            {
                tokens.append(token)
            }
            #expect(tokens == [Token(text: "Hel"), Token(text: "lo")])
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func withAPolicyItReconnectsWithTheLastEventIDUntilA204() async throws {
        let connections = Synchronized<[String?]>([])
        try await TestServer.with({ router in
            router.get("feed") { request, _ in
                let count = connections.update { list in
                    list.append(request.headers[Self.lastEventID])
                    return list.count
                }
                switch count {
                case 1:
                    return eventStreamResponse(["retry: 10\nid: 1\ndata: one\n\n"])
                case 2:
                    return eventStreamResponse(["id: 2\ndata: two\n\n"])
                default:
                    return Hummingbird.Response(status: .noContent)
                }
            }
        }) { server in
            let plugin = StreamPluginRecorder()
            let provider = MoyaProvider<DynamicTarget>(plugins: [plugin])
            var received: [String] = []
            let target = DynamicTarget(baseURL: server.baseURL, path: "/feed")
            for try await event in provider.events(target, reconnect: .attempts(3, delay: 0, minimumDelay: 0)) {
                received.append(event.data)
            }
            #expect(received == ["one", "two"])
            #expect(connections.update { $0 } == [nil, "1", "2"])
            #expect(plugin.headers.count == 3)
            #expect(plugin.log.all.filter { $0 == "willSend" }.count == 3)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func reconnectionsAreBoundedAndOffByDefault() async throws {
        let connections = Synchronized(0)
        try await TestServer.with({ router in
            router.get("empty") { _, _ in
                connections.update { $0 += 1 }
                return eventStreamResponse([": nothing to say\n"])
            }
        }) { server in
            let provider = MoyaProvider<DynamicTarget>()
            let target = DynamicTarget(baseURL: server.baseURL, path: "/empty")
            for try await _ in provider.events(target) {
                Issue.record("an event out of nothing")
            }
            #expect(connections.update { $0 } == 1)

            for try await _ in provider.events(target, reconnect: .attempts(2, delay: 0, minimumDelay: 0)) {
                Issue.record("an event out of nothing")
            }
            // The first connection, then two reconnections without an event.
            #expect(connections.update { $0 } == 4)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aRefusedStatusIsNeverRetriedByTheReconnectPolicy() async throws {
        let connections = Synchronized(0)
        try await TestServer.with({ router in
            router.get("gone") { _, _ in
                connections.update { $0 += 1 }
                return Hummingbird.Response(status: .notFound)
            }
        }) { server in
            let provider = MoyaProvider<DynamicTarget>()
            var target = DynamicTarget(baseURL: server.baseURL, path: "/gone")
            target.validationType = .successCodes
            await #expect(throws: MoyaError.self) {
                for try await _ in provider.events(target, reconnect: .attempts(5, delay: 0)) {}
            }
            #expect(connections.update { $0 } == 1)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func leavingAnEndlessEventStreamMidwayClosesTheConnection() async throws {
        let (closed, closedContinuation) = AsyncStream<Void>.makeStream()
        try await TestServer.with({ router in
            router.get("ticks") { _, _ in endlessResponse(closed: closedContinuation, event: true) }
        }) { server in
            let plugin = StreamPluginRecorder()
            let provider = MoyaProvider<DynamicTarget>(plugins: [plugin])
            var count = 0
            for try await event in provider.events(DynamicTarget(baseURL: server.baseURL, path: "/ticks")) {
                #expect(event.data == "tick")
                count += 1
                if count == 50 { break }
            }
            for await _ in closed { break }
            let result = await plugin.nextResult()
            guard case .failure(let error)? = result else {
                Issue.record("expected the cancelled error, got \(String(describing: result))")
                return
            }
            #expect(error.isCancellation)
        }
    }
}
