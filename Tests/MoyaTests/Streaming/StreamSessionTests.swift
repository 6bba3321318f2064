import Foundation
import Hummingbird
import LoopbackServer
import Moya
import NIOCore
import Testing

/// A stream goes through the session as every request does, so it keeps the session's rules.
@Suite("Streams through the session")
struct StreamSessionTests {
    @Test(.timeLimit(.minutes(1)))
    func aStreamThePoolGaveUpOnIsQueuedAgainAndGetsTheConnectionOnceFree() async throws {
        let (arrived, arrivedContinuation) = AsyncStream<Void>.makeStream()
        try await TestServer.with({ router in
            router.get("hold") { _, _ -> String in
                arrivedContinuation.yield()
                try await _Concurrency.Task.sleep(for: .milliseconds(2500))
                return "held"
            }
            router.get("parts") { _, _ -> String in "streamed" }
        }) { server in
            // One connection, held for 2.5 seconds; the pool gives up on a waiting request after
            // a second, and the session queues it again each time.
            var configuration = Session.Configuration(connectTimeout: .seconds(1))
            configuration.asyncHTTPClient.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 1
            let session = Session(configuration: configuration)
            let holder = session.httpClient.get(url: server.baseURL.appendingPathComponent("hold").absoluteString)
            holder.whenComplete { _ in arrivedContinuation.finish() }
            var holding = false
            for await _ in arrived {
                holding = true
                break
            }
            try #require(holding, "the first request must hold the only connection")

            let provider = MoyaProvider<DynamicTarget>(session: session)
            let streamed = try await provider.stream(DynamicTarget(baseURL: server.baseURL, path: "/parts"))
            let body = try await streamed.chunks.collect(upTo: 1 << 10)
            #expect(String(decoding: body, as: UTF8.self) == "streamed")
            let held = try await holder.get()
            #expect(held.status == .ok)
        }
    }
}
