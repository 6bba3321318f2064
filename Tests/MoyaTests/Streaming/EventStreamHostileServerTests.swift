import Foundation
import HTTPTypes
import Hummingbird
import LoopbackServer
import Moya
import NIOCore
import Testing

/// `events(_:reconnect:)` against servers that would make it spin or fail in silence: `retry: 0`
/// with one event per connection, and a server answering another type than events.
@Suite("Server-sent events against hostile and negotiating servers")
struct EventStreamHostileServerTests {
    /// `retry: 0` and one event, then the end of the body: cleanly, or by dropping the connection.
    private static func oneEventThenHangUp(dropConnection: Bool) -> Hummingbird.Response {
        Hummingbird.Response(
            status: .ok,
            headers: [.contentType: "text/event-stream"],
            body: ResponseBody { writer in
                try await writer.write(ByteBuffer(string: "retry: 0\ndata: one\n\n"))
                if dropConnection {
                    throw CancellationError()
                }
                try await writer.finish(nil)
            }
        )
    }

    @Test(.timeLimit(.minutes(1)), arguments: [false, true])
    func aServerAskingForRetryZeroIsReconnectedToWithBackOffAndThenLeft(dropConnection: Bool) async throws {
        let connections = Synchronized(0)
        try await TestServer.with({ router in
            router.get("storm") { _, _ in
                connections.update { $0 += 1 }
                return Self.oneEventThenHangUp(dropConnection: dropConnection)
            }
        }) { server in
            let provider = MoyaProvider<DynamicTarget>()
            let target = DynamicTarget(baseURL: server.baseURL, path: "/storm")
            let clock = ContinuousClock()
            let started = clock.now
            var events = 0
            do {
                for try await _ in provider.events(target, reconnect: .attempts(2, delay: 1)) {
                    events += 1
                }
            } catch {
                // A dropped connection ends the stream with its error once the attempts are spent.
                #expect(dropConnection, "a clean end must not throw: \(error)")
            }
            let elapsed = started.duration(to: clock.now)
            // The first connection and two reconnections, each sending its event, did not
            // reset the count; the waits were floored at 0.5 s and doubled.
            #expect(connections.update { $0 } == 3)
            #expect(events == 3)
            #expect(elapsed >= .milliseconds(1_500))
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aTargetAcceptingOnlyJSONStillAsksForEventsAndGetsThem() async throws {
        let accepted = Synchronized<[String]>([])
        try await TestServer.with({ router in
            router.get("negotiated") { request, _ in
                let accept = request.headers[.accept] ?? ""
                accepted.update { $0.append(accept) }
                guard accept.contains("text/event-stream") else {
                    return Hummingbird.Response(
                        status: .ok,
                        headers: [.contentType: "application/json"],
                        body: .init(byteBuffer: ByteBuffer(string: "{\"zen\":\"json\"}"))
                    )
                }
                return eventStreamResponse(["data: zen\n\n"])
            }
        }) { server in
            let provider = MoyaProvider<DynamicTarget>()
            var target = DynamicTarget(baseURL: server.baseURL, path: "/negotiated")
            target.headers = ["Accept": "application/json"]
            var received: [String] = []
            for try await event in provider.events(target) {
                received.append(event.data)
            }
            #expect(received == ["zen"])
            #expect(accepted.update { $0 } == ["text/event-stream"])
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aResponseThatIsNotAnEventStreamFailsAtOnceWithoutReconnecting() async throws {
        let connections = Synchronized(0)
        try await TestServer.with({ router in
            router.get("json") { _, _ in
                connections.update { $0 += 1 }
                return Hummingbird.Response(
                    status: .ok,
                    headers: [.contentType: "application/json; charset=utf-8"],
                    body: .init(byteBuffer: ByteBuffer(string: "{\"data\":\"not an event\"}"))
                )
            }
        }) { server in
            let provider = MoyaProvider<DynamicTarget>()
            let target = DynamicTarget(baseURL: server.baseURL, path: "/json")
            do {
                for try await _ in provider.events(target, reconnect: .attempts(3)) {
                    Issue.record("JSON is not an event")
                }
                Issue.record("the loop must throw")
            } catch {
                guard case .underlying(let underlying, let response?) = error as? MoyaError,
                    let unexpected = underlying as? MoyaClientError, unexpected.code == .unexpectedContentType
                else {
                    Issue.record("expected MoyaClientError unexpectedContentType with the response, got \(error)")
                    return
                }
                #expect(unexpected.name == "application/json; charset=utf-8")
                #expect(response.statusCode == 200)
                #expect("\(error)".contains("text/event-stream"))
            }
            #expect(connections.update { $0 } == 1)
        }
    }
}
