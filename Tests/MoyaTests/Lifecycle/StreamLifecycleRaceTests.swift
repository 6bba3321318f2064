import Foundation
import Testing

@testable import Moya

/// A streamed request's races, played against a scripted transport: a head that arrives after
/// a cancel, and an attempt dropped for a retry, end their transfers and never reach plugins
/// as the stream's end.
@Suite("Stream lifecycle races", .timeLimit(.minutes(1)))
struct StreamLifecycleRaceTests {
    private static let head = Response(statusCode: 200, data: Data())

    private static func makeLifecycle(
        transport: ScriptedTransport,
        plugins: [PluginType],
        interceptor: RequestInterceptor? = nil
    ) -> RequestLifecycle {
        let target = RequestLifecycleRaceTests.target
        var context = RequestLifecycle.Context(
            target: target,
            endpoint: MoyaProvider<DynamicTarget>.defaultEndpointMapping(for: target),
            stubBehavior: .never,
            plugins: plugins,
            hasAsyncPlugins: false,
            sessionPolicy: Session.default.policy,
            transport: transport,
            requestClosure: { endpoint, done in done(Result { try endpoint.urlRequest() }.mapError(MoyaError.wrapping))
            },
            interceptor: interceptor,
            activeRequests: nil
        )
        context.streaming = RequestLifecycle.Streaming()
        return RequestLifecycle(context: context)
    }

    /// A body the test writes, and how its transfer ended.
    private final class ScriptedBody: Sendable {
        let endings = Synchronized<[ChunkChannel.Termination]>([])
        let channel: ChunkChannel

        init(reportingTo events: StreamEvents) {
            let endings = self.endings
            channel = ChunkChannel { termination in
                endings.update { $0.append(termination) }
                events.ended(termination)
            }
        }

        var opened: OpenedStream {
            OpenedStream(head: StreamLifecycleRaceTests.head, chunks: ResponseChunks(channel: channel))
        }

        var readerLeft: Bool {
            endings.update { $0.contains { if case .consumerLeft = $0 { true } else { false } } }
        }
    }

    @Test func aHeadArrivingAfterACancelIsDroppedAndItsTransferEnds() async throws {
        let transport = ScriptedTransport()
        let plugin = StreamPluginRecorder()
        let lifecycle = Self.makeLifecycle(transport: transport, plugins: [plugin])
        let reader = _Concurrency.Task { try await lifecycle.openStream() }
        let open = try #require(await transport.nextOpen())

        reader.cancel()
        // The cancel waits for the transport to answer, as for every request.
        await lifecycle.phaseReached { if case .cancellingTransport = $0 { true } else { false } }
        #expect(open.handle.isCancelled)

        // The transport's answer is a head that won the race: nobody takes it, and its
        // transfer is ended.
        let body = ScriptedBody(reportingTo: open.events)
        open.events.head(.success(body.opened))
        await #expect(throws: MoyaError.self) { try await reader.value }
        #expect(body.readerLeft)
        let result = await plugin.nextResult()
        guard case .failure(let error)? = result else {
            Issue.record("plugins must hear the cancel, got \(String(describing: result))")
            return
        }
        #expect(error.isCancellation)
        #expect(plugin.log.all == ["willSend", "didReceive"])
    }

    @Test func aRetriedAttemptsBodyIsDroppedAndTheNextOneIsHandedOver() async throws {
        let transport = ScriptedTransport()
        let plugin = StreamPluginRecorder()
        let lifecycle = Self.makeLifecycle(
            transport: transport,
            plugins: [plugin],
            interceptor: ScriptedRetrier(decisions: [.retry])
        )
        let reader = _Concurrency.Task { () throws(MoyaError) -> String in
            let streamed = try await lifecycle.openStream()
            var text = ""
            for try await chunk in streamed.chunks {
                text += String(decoding: chunk, as: UTF8.self)
            }
            return text
        }

        let first = try #require(await transport.nextOpen())
        let firstBody = ScriptedBody(reportingTo: first.events)
        first.events.head(.success(firstBody.opened))
        let second = try #require(await transport.nextOpen())
        #expect(firstBody.readerLeft)

        let secondBody = ScriptedBody(reportingTo: second.events)
        second.events.head(.success(secondBody.opened))
        _ = secondBody.channel.send(Data("second".utf8)) {}
        secondBody.channel.finish(.finished)
        #expect(try await reader.value == "second")

        let result = await plugin.nextResult()
        guard case .success(let head)? = result else {
            Issue.record("plugins must hear the handed-over stream's end, got \(String(describing: result))")
            return
        }
        #expect(head === Self.head)
        #expect(plugin.log.all == ["willSend", "didReceive"])
        #expect(!secondBody.readerLeft)
    }
}
