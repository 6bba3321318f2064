import Foundation
import Hummingbird
import LoopbackServer
import Moya
import Testing

@Suite("Releasing a provider: in-flight requests cancelled, nothing kept alive")
struct ProviderReleaseTests {
    let queue = DispatchQueue(label: "provider-release-tests")

    /// A plugin that is a class, so that its lifetime can be watched.
    private final class WatchedPlugin: PluginType {}

    @Test func releasingAProviderCancelsItsStubbedRequestInFlight() async {
        let completions = Counter()
        let result: Result<Moya.Response, MoyaError> = await withCheckedContinuation { continuation in
            var provider: MoyaProvider<PipelineTarget>? = MoyaProvider<PipelineTarget>(
                stubClosure: MoyaProvider.delayedStub(30)
            )
            provider?.request(.zen, callbackQueue: queue) { result in
                completions.increment()
                continuation.resume(returning: result)
            }
            provider = nil
        }
        guard case .failure(let error) = result else {
            Issue.record("expected a cancellation, got \(result)")
            return
        }
        #expect(error.isCancellation)
        queue.sync {}
        #expect(completions.count == 1)
    }

    @Test func releasingAProviderCancelsItsNetworkRequestInFlight() async throws {
        let (arrived, arrivedContinuation) = AsyncStream<Void>.makeStream()
        try await TestServer.with({ router in
            router.get("slow") { _, _ -> Response in
                arrivedContinuation.yield()
                try await _Concurrency.Task.sleep(for: .seconds(60))
                return Response(status: .ok)
            }
        }) { server in
            let started = ContinuousClock.now
            let box = ProviderBox(MoyaProvider<DynamicTarget>())
            let result: Result<Moya.Response, MoyaError> = await withCheckedContinuation { continuation in
                box.provider?.request(DynamicTarget(baseURL: server.baseURL, path: "/slow"), callbackQueue: queue) {
                    continuation.resume(returning: $0)
                }
                _Concurrency.Task {
                    for await _ in arrived { break }
                    box.release()
                }
            }
            guard case .failure(let error) = result else {
                Issue.record("expected a cancellation, got \(result)")
                return
            }
            #expect(error.isCancellation)
            #expect(ContinuousClock.now - started < .seconds(30))
        }
    }

    @Test func aFinishedRequestKeepsNoProviderSessionOrPluginAlive() async throws {
        weak var weakProvider: MoyaProvider<PipelineTarget>?
        weak var weakSession: Session?
        weak var weakPlugin: WatchedPlugin?
        do {
            let plugin = WatchedPlugin()
            let session = Session()
            let provider = MoyaProvider<PipelineTarget>(
                stubClosure: MoyaProvider.immediatelyStub,
                session: session,
                plugins: [plugin]
            )
            weakProvider = provider
            weakSession = session
            weakPlugin = plugin
            _ = await provider.requestAndWait(.zen, callbackQueue: queue)
            _ = try await provider.request(.zen)
        }
        // The completion block that ran last may still be unwinding on the queue.
        queue.sync {}
        #expect(weakProvider == nil)
        #expect(weakSession == nil)
        #expect(weakPlugin == nil)
    }
}

/// Holds a provider until `release()`, from any thread.
private final class ProviderBox: Sendable {
    private let stored: Synchronized<MoyaProvider<DynamicTarget>?>

    init(_ provider: MoyaProvider<DynamicTarget>) {
        stored = Synchronized(provider)
    }

    var provider: MoyaProvider<DynamicTarget>? {
        stored.update { $0 }
    }

    func release() {
        stored.update { $0 = nil }
    }
}
