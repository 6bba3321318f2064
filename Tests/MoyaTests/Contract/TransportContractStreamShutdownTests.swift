import Foundation
import Hummingbird
import LoopbackServer
import NIOCore
import Testing

@testable import Moya

/// A session's shutdown ends its streams as it ends its other requests, through every
/// transport: a stream in flight fails, and one asked for afterwards is refused unsent.
@Suite("Transport contract: streams and the session's shutdown")
struct TransportContractStreamShutdownTests {
    @Test(.timeLimit(.minutes(1)), arguments: TransportUnderTest.allCases)
    func aStreamInFlightEndsWhenItsSessionShutsDown(_ transport: TransportUnderTest) async throws {
        try await TestServer.with({ router in
            router.get("trickle") { _, _ in
                Hummingbird.Response(
                    status: .ok,
                    body: ResponseBody { writer in
                        try await writer.write(ByteBuffer(string: "first"))
                        try await _Concurrency.Task.sleep(for: .seconds(30))
                        try await writer.finish(nil)
                    }
                )
            }
        }) { server in
            let session = transport.session()
            let provider = MoyaProvider<DynamicTarget>(session: session)
            let streamed = try await provider.stream(DynamicTarget(baseURL: server.baseURL, path: "/trickle"))
            var chunks = streamed.chunks.makeAsyncIterator()
            let first = try await chunks.next()
            #expect(first.map { String(decoding: $0, as: UTF8.self) } == "first")

            try await session.shutdown()
            do {
                while try await chunks.next() != nil {}
                Issue.record("a stream must end with its session's shutdown")
            } catch {
                #expect((error as? MoyaError)?.isCancellation == true, "\(error)")
            }
        }
    }

    @Test(.timeLimit(.minutes(1)), arguments: TransportUnderTest.allCases)
    func aStreamAfterTheSessionShutDownFailsWithSessionShutDownUnsent(_ transport: TransportUnderTest) async throws {
        let hits = Counter()
        try await TestServer.with({ router in
            router.get("me") { _, _ in
                hits.increment()
                return "me"
            }
        }) { server in
            let session = transport.session()
            let provider = MoyaProvider<DynamicTarget>(session: session)
            try await session.shutdown()
            do {
                _ = try await provider.stream(DynamicTarget(baseURL: server.baseURL, path: "/me"))
                Issue.record("a shut-down session must refuse the stream")
            } catch {
                expectSessionShutDown(error)
            }
            #expect(hits.count == 0, "nothing is sent after the shutdown")
        }
    }
}
