import Foundation
import Testing

@testable import Moya

/// The lifecycle's races, each played in a chosen order against a scripted transport: whatever
/// happens, every caller is answered exactly once, and a cancelled request stops its work.
@Suite("Request lifecycle races", .timeLimit(.minutes(1)))
struct RequestLifecycleRaceTests {
    static let session = Session()
    static let target = DynamicTarget(baseURL: URL(string: "https://example.com")!, path: "/race")

    static func makeLifecycle(
        transport: ScriptedTransport,
        plugins: [PluginType] = [],
        interceptor: RequestInterceptor? = nil,
        requestClosure: @escaping (Endpoint, @escaping @Sendable (Result<URLRequest, MoyaError>) -> Void) -> Void =
            { endpoint, done in done(Result { try endpoint.urlRequest() }.mapError(MoyaError.wrapping)) }
    ) -> RequestLifecycle {
        let endpoint = MoyaProvider<DynamicTarget>.defaultEndpointMapping(for: target)
        let context = RequestLifecycle.Context(
            target: target,
            endpoint: endpoint,
            stubBehavior: .never,
            plugins: plugins,
            hasAsyncPlugins: plugins.contains { $0 is AsyncPluginType },
            sessionPolicy: Session.default.policy,
            transport: transport,
            requestClosure: requestClosure,
            interceptor: interceptor,
            activeRequests: nil
        )
        return RequestLifecycle(context: context)
    }

    /// Fresh deliveries subscribed to `lifecycle`, which is then started, with the subscriber's id.
    static func subscribeAndStart(
        _ lifecycle: RequestLifecycle,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> (deliveries: Deliveries, id: Int) {
        let deliveries = Deliveries()
        let id = try #require(deliveries.subscribe(to: lifecycle), sourceLocation: sourceLocation)
        lifecycle.start()
        return (deliveries, id)
    }

    static func isCancelled(_ result: Result<Response, MoyaError>?) -> Bool {
        if case .failure(let error) = result { return error.isCancellation }
        return false
    }

    @Test func aCancelWhileBuildingIsDeliveredAtOnceAndNothingIsSent() throws {
        let transport = ScriptedTransport()
        let pending = Synchronized<(@Sendable (Result<URLRequest, MoyaError>) -> Void)?>(nil)
        let lifecycle = Self.makeLifecycle(transport: transport) { _, done in pending.update { $0 = done } }
        let (deliveries, id) = try Self.subscribeAndStart(lifecycle)

        lifecycle.cancel(subscriber: id)
        #expect(deliveries.all.count == 1)
        #expect(Self.isCancelled(deliveries.all.first))

        let stored = pending.update { $0 }
        let done = try #require(stored)
        done(.success(URLRequest(url: URL(string: "https://example.com/late")!)))
        #expect(transport.sendCount == 0)
        #expect(deliveries.all.count == 1)
    }

    @Test func aCancelWhilePreparingStopsTheAsyncPluginAndIsDeliveredAtOnce() async throws {
        let transport = ScriptedTransport()
        let plugin = WaitingPlugin()
        let lifecycle = Self.makeLifecycle(transport: transport, plugins: [plugin])
        let (deliveries, id) = try Self.subscribeAndStart(lifecycle)
        await plugin.gate.entered()

        let work = lifecycle.cancel(subscriber: id)
        #expect(deliveries.all.count == 1)
        #expect(Self.isCancelled(deliveries.all.first))

        // The plugin's task ends once it sees the cancel; nothing is sent after it.
        await work?.value
        #expect(work != nil)
        let sawCancellation = plugin.sawCancellation.update { $0 }
        #expect(sawCancellation)
        #expect(transport.sendCount == 0)
        #expect(deliveries.all.count == 1)
    }

    @Test func aCancelWhileTheTransportStartsIsDeliveredOnceTheTransportHasStopped() throws {
        let lifecycleBox = Synchronized<(RequestLifecycle, Int)?>(nil)
        let transport = ScriptedTransport(whileStarting: { _ in
            if let (lifecycle, id) = lifecycleBox.update({ $0 }) {
                lifecycle.cancel(subscriber: id)
            }
        })
        let lifecycle = Self.makeLifecycle(transport: transport)
        let deliveries = Deliveries()
        let id = try #require(deliveries.subscribe(to: lifecycle))
        lifecycleBox.update { $0 = (lifecycle, id) }
        lifecycle.start()

        #expect(transport.sendCount == 1)
        #expect(deliveries.all.isEmpty, "the cancel waits for the transfer to stop")
        let handle = try #require(transport.lastHandle)
        #expect(handle.isCancelled)
        handle.finishStopping()
        #expect(deliveries.all.count == 1)
        #expect(Self.isCancelled(deliveries.all.first))
    }

    @Test func aCancelDuringARetryWaitEndsTheWaitAndNoAttemptFollows() async throws {
        let transport = ScriptedTransport()
        let interceptor = ScriptedRetrier(decisions: [.retryWithDelay(3600)])
        let lifecycle = Self.makeLifecycle(transport: transport, interceptor: interceptor)
        let (deliveries, id) = try Self.subscribeAndStart(lifecycle)
        let first = try #require(await transport.nextSend())
        first.answer(.success(Response(statusCode: 503, data: Data())))
        await lifecycle.phaseReached { if case .waitingToRetry(_, .some) = $0 { true } else { false } }

        let wait = try #require(lifecycle.cancel(subscriber: id))
        #expect(deliveries.all.count == 1)
        #expect(Self.isCancelled(deliveries.all.first))
        await wait.value
        #expect(wait.isCancelled)
        #expect(transport.sendCount == 1)
    }

    @Test func aCancelAfterCompletionDeliversNothingMore() async throws {
        let transport = ScriptedTransport()
        let lifecycle = Self.makeLifecycle(transport: transport)
        let (deliveries, id) = try Self.subscribeAndStart(lifecycle)
        let send = try #require(await transport.nextSend())
        send.answer(.success(Response(statusCode: 200, data: Data("done".utf8))))

        lifecycle.cancel(subscriber: id)
        #expect(!send.handle.isCancelled)
        #expect(deliveries.all.count == 1)
        #expect((try? deliveries.all.first?.get())?.data == Data("done".utf8))
    }

    @Test func anAnswerRacingACancelIsDeliveredExactlyOnce() async throws {
        for _ in 0..<200 {
            let transport = ScriptedTransport()
            let lifecycle = Self.makeLifecycle(transport: transport)
            let (deliveries, id) = try Self.subscribeAndStart(lifecycle)
            let send = try #require(await transport.nextSend())
            async let answered: Void = send.answer(.success(Response(statusCode: 200, data: Data())))
            async let cancelled: StateMachineWork? = lifecycle.cancel(subscriber: id)
            _ = await (answered, cancelled)
            if send.handle.isCancelled {
                send.handle.finishStopping()
            }
            #expect(deliveries.all.count == 1)
        }
    }

    @Test func aRetryDecidedAfterACancelSendsNoSecondAttempt() async throws {
        let transport = ScriptedTransport()
        let interceptor = ScriptedRetrier(decisions: [.retry], gated: true)
        let lifecycle = Self.makeLifecycle(transport: transport, interceptor: interceptor)
        let (deliveries, id) = try Self.subscribeAndStart(lifecycle)
        let first = try #require(await transport.nextSend())
        first.answer(.success(Response(statusCode: 503, data: Data())))
        await interceptor.gate.entered()

        let deciding = try #require(lifecycle.cancel(subscriber: id))
        #expect(deliveries.all.count == 1)
        #expect(Self.isCancelled(deliveries.all.first))
        interceptor.gate.open()
        await deciding.value
        #expect(transport.sendCount == 1)
        #expect(deliveries.all.count == 1)
    }
}

typealias StateMachineWork = RequestLifecycle.StateMachine.Work
