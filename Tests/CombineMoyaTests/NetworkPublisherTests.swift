import CombineMoya
import Foundation
import Hummingbird
import LoopbackServer
import Moya
import Testing

#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif

/// A target on a server whose address is known at run time.
struct LocalTarget: TargetType {
    var baseURL: URL
    var path: String
    var method: Moya.Method { .get }
    var task: Moya.Task { .requestPlain }
    var headers: [String: String]? { nil }
}

@Suite("Publishers over the network", .timeLimit(.minutes(1)))
struct NetworkPublisherTests {
    static let bodySize = 256 * 1024

    /// The routes of the tests; `/stall` reports each arrival on `arrivals` and answers only once
    /// `release` finishes.
    private func routes(
        arrivals: AsyncStream<Void>.Continuation? = nil,
        release: AsyncStream<Void>? = nil
    ) -> (Router<BasicRequestContext>) -> Void {
        { router in
            router.get("zen") { _, _ in "Practicality beats purity." }
            router.get("users/:name") { _, context in
                let name = context.parameters.get("name") ?? ""
                return #"{"login": "\#(name)", "id": 1}"#
            }
            router.get("missing") { _, _ in Hummingbird.Response(status: .notFound) }
            router.get("bytes") { _, _ in String(repeating: "a", count: Self.bodySize) }
            router.get("stall") { _, _ -> String in
                arrivals?.yield()
                if let release {
                    for await _ in release {}
                }
                return "late"
            }
        }
    }

    private func provider(plugins: [PluginType] = []) -> MoyaProvider<LocalTarget> {
        MoyaProvider<LocalTarget>(callbackQueue: callbackQueue, plugins: plugins)
    }

    @Test func responseFromTheServerThenFinished() async throws {
        try await TestServer.with(routes()) { server in
            let recorder = await provider().requestPublisher(LocalTarget(baseURL: server.baseURL, path: "/zen"))
                .record()

            #expect(recorder.values.map(\.statusCode) == [200])
            #expect(
                recorder.values.first.map { String(decoding: $0.data, as: UTF8.self) } == "Practicality beats purity."
            )
            #expect(recorder.values.first?.response?.statusCode == 200)
            #expect(recorder.endings.count == 1)
            #expect(recorder.ending?.error == nil)
        }
    }

    @Test func decodesTheServerJSON() async throws {
        try await TestServer.with(routes()) { server in
            let recorder = await provider()
                .requestPublisher(LocalTarget(baseURL: server.baseURL, path: "/users/octocat"))
                .filterSuccessfulStatusCodes()
                .map(User.self)
                .record()

            #expect(recorder.values == [User(login: "octocat", id: 1)])
            #expect(recorder.ending?.error == nil)
        }
    }

    @Test func filterFailsOnTheServer404() async throws {
        try await TestServer.with(routes()) { server in
            let recorder = await provider()
                .requestPublisher(LocalTarget(baseURL: server.baseURL, path: "/missing"))
                .filterSuccessfulStatusCodes()
                .record()

            guard case .statusCode(let response) = recorder.ending?.error else {
                Issue.record("expected .statusCode, got \(recorder.endings)")
                return
            }
            #expect(response.statusCode == 404)
        }
    }

    @Test func cancellingTheSubscriptionCancelsTheRequestInFlight() async throws {
        let arrivals = AsyncStream<Void>.makeStream()
        let release = AsyncStream<Void>.makeStream()
        defer { release.continuation.finish() }
        try await TestServer.with(routes(arrivals: arrivals.continuation, release: release.stream)) { server in
            let counter = RequestCounter()
            let recorder = Recorder<Moya.Response>()
            provider(plugins: [counter])
                .requestPublisher(LocalTarget(baseURL: server.baseURL, path: "/stall"))
                .subscribe(recorder)

            for await _ in arrivals.stream { break }
            await cancelAndExpectSilentCancellation(recorder, counter: counter)
        }
    }

    @Test func progressRisesThenEndsWithTheCompletedResponse() async throws {
        try await TestServer.with(routes()) { server in
            let recorder = await provider()
                .requestWithProgressPublisher(LocalTarget(baseURL: server.baseURL, path: "/bytes"))
                .record()

            let last = try #require(recorder.values.last)
            #expect(last.completed)
            #expect(last.response?.data.count == Self.bodySize)
            // Progress of the body as it arrives, then the completed event.
            #expect(recorder.values.count > 1)
            let progress = recorder.values.map(\.progress)
            #expect(progress.allSatisfy { (0.0...1.0).contains($0) })
            #expect(progress == progress.sorted())
            #expect(recorder.values.dropLast().allSatisfy { !$0.completed })
            #expect(recorder.ending?.error == nil)
            #expect(recorder.contractViolations == 0)
        }
    }
}
