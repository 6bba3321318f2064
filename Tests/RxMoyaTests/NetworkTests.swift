#if RxMoya
import Foundation
import LoopbackServer
import Moya
import ReactiveTestSupport
import RxMoya
// RxSwift has no Sendable annotations; the tests share nothing mutable outside recorders.
@preconcurrency import RxSwift
import Testing

@Suite("provider.rx against the loopback server", .timeLimit(.minutes(1)))
struct NetworkTests {
    private func provider(plugins: [PluginType] = []) -> MoyaProvider<LocalTarget> {
        MoyaProvider<LocalTarget>(callbackQueue: callbackQueue, plugins: plugins)
    }

    @Test func responseFromTheServerThenCompleted() async throws {
        try await TestServer.with(LoopbackRoutes().add) { server in
            let recorder = await provider().rx.request(LocalTarget(baseURL: server.baseURL, path: "/zen")).record()

            #expect(recorder.values.map(\.statusCode) == [200])
            #expect(recorder.values.map { String(decoding: $0.data, as: UTF8.self) } == ["Practicality beats purity."])
            #expect(recorder.completed)
            #expect(recorder.eventQueues.allSatisfy { $0 == callbackQueue.label })
        }
    }

    @Test func decodesTheServerJSON() async throws {
        try await TestServer.with(LoopbackRoutes().add) { server in
            let recorder = await provider().rx.request(LocalTarget(baseURL: server.baseURL, path: "/users/octocat"))
                .filterSuccessfulStatusCodes()
                .map(User.self)
                .record()

            #expect(recorder.values == [User(login: "octocat", id: 1)])
            #expect(recorder.completed)
        }
    }

    @Test func filterFailsOnTheServer404() async throws {
        try await TestServer.with(LoopbackRoutes().add) { server in
            let recorder = await provider().rx.request(LocalTarget(baseURL: server.baseURL, path: "/missing"))
                .filterSuccessfulStatusCodes()
                .record()

            guard case .statusCode(let response) = recorder.error as? MoyaError else {
                Issue.record("expected .statusCode, got \(recorder.events)")
                return
            }
            #expect(response.statusCode == 404)
        }
    }

    @Test func nothingReachesTheServerBeforeSubscriptionAndEachSubscriptionSendsOne() async throws {
        try await TestServer.with(LoopbackRoutes().add) { server in
            let counter = RequestCounter()
            let single = provider(plugins: [counter]).rx.request(LocalTarget(baseURL: server.baseURL, path: "/count"))
                .mapString()
            await drain(callbackQueue)
            #expect(counter.sentCount == 0)

            let first = await single.record()
            let second = await single.record()

            // The server counts its hits: a request sent before subscription would show here.
            #expect(first.values == ["1"])
            #expect(second.values == ["2"])
            #expect(counter.sentCount == 2)
        }
    }

    @Test func disposingCancelsTheRequestInFlightAndNothingFollows() async throws {
        let arrivals = AsyncStream<Void>.makeStream()
        let release = AsyncStream<Void>.makeStream()
        defer { release.continuation.finish() }
        let routes = LoopbackRoutes(arrivals: arrivals.continuation, release: release.stream)
        try await TestServer.with(routes.add) { server in
            let counter = RequestCounter()
            let recorder = provider(plugins: [counter]).rx
                .request(LocalTarget(baseURL: server.baseURL, path: "/stall"))
                .startRecording()

            for await _ in arrivals.stream { break }
            recorder.dispose()
            await counter.waitForResults()
            await drain(callbackQueue)

            guard case .failure(let error) = counter.receivedResults.first else {
                Issue.record("expected the cancelled error, got \(counter.receivedResults)")
                return
            }
            #expect(error.isCancellation)
            #expect(recorder.events.isEmpty)
        }
    }

    @Test func progressRisesThenEndsWithTheCompletedResponse() async throws {
        try await TestServer.with(LoopbackRoutes().add) { server in
            let recorder = await provider().rx
                .requestWithProgress(LocalTarget(baseURL: server.baseURL, path: "/bytes"))
                .record()

            let last = try #require(recorder.values.last)
            #expect(last.completed)
            #expect(last.response?.data.count == LoopbackRoutes.bodySize)
            #expect(recorder.values.count > 1)
            let progress = recorder.values.map(\.progress)
            #expect(progress.allSatisfy { (0.0...1.0).contains($0) })
            #expect(progress == progress.sorted())
            #expect(recorder.values.dropLast().allSatisfy { !$0.completed })
            #expect(recorder.completed)
        }
    }

    @Test func progressOfAnUnreachableServerEndsWithTheMoyaError() async throws {
        let recorder = await provider().rx
            .requestWithProgress(LocalTarget(baseURL: TestServer.unreachableBaseURL, path: "/zen"))
            .record()

        #expect(recorder.values.allSatisfy { !$0.completed })
        guard case .underlying = recorder.error as? MoyaError else {
            Issue.record("expected .underlying, got \(recorder.events)")
            return
        }
    }

    @Test func observeOnDeliversTheServerResponseOnTheScheduler() async throws {
        try await TestServer.with(LoopbackRoutes().add) { server in
            let queue = makeMarkedQueue("rx-network-observe-on")
            let scheduler = SerialDispatchQueueScheduler(queue: queue, internalSerialQueueName: "rx-network-internal")
            let recorder = await provider().rx.request(LocalTarget(baseURL: server.baseURL, path: "/zen"))
                .observe(on: scheduler)
                .record()

            #expect(recorder.values.count == 1)
            #expect(recorder.eventQueues == ["rx-network-observe-on", "rx-network-observe-on"])
        }
    }
}
#endif
