import Benchmark
import Foundation
import Moya

// The HTTP cache's costs, each next to what it replaces: a fresh hit next to the stub path
// (neither touches the network; both build a `Response` from bytes in memory), and a `304`
// revalidation next to a full GET of the same 1 KB (both one round trip to nginx).

/// Registers the HTTP cache benchmarks.
func cacheBenchmarks(_ configuration: Benchmark.Configuration) {
    Benchmark("HTTP cache: 1 KB from memory, fresh hit or stub · Moya cache hit", configuration: configuration) { benchmark, fixture in
        let target = BenchAPI(baseURL: fixture.baseURL, operation: .getCachedJSON)
        benchmark.measurement(requestsMetric, 20000)
        for _ in 0..<20000 {
            let response = try await fixture.cached.request(target)
            guard response.cacheStatus.isFromCache else { throw BenchmarkFailure("not a cache hit: \(response.cacheStatus)") }
            blackHole(response)
        }
    } setup: {
        try await CacheFixture.start()
    }

    Benchmark("HTTP cache: 1 KB from memory, fresh hit or stub · Moya stub", configuration: configuration) { benchmark, provider in
        let target = BenchAPI(baseURL: Network.unusedURL, operation: .getJSON)
        benchmark.measurement(requestsMetric, 20000)
        for _ in 0..<20000 {
            blackHole(try await provider.request(target))
        }
    } setup: {
        MoyaProvider<BenchAPI>(stubClosure: MoyaProvider.immediatelyStub)
    }

    Benchmark("HTTP cache: 1 KB GET, 304 revalidation or full · Moya 304", configuration: configuration) { benchmark, fixture in
        let target = BenchAPI(baseURL: fixture.baseURL, operation: .getJSON)
        benchmark.measurement(requestsMetric, 4096)
        for _ in 0..<4096 {
            let response = try await fixture.revalidating.request(target)
            guard response.cacheStatus.isRevalidated else { throw BenchmarkFailure("not revalidated: \(response.cacheStatus)") }
            blackHole(response)
        }
    } setup: {
        try await CacheFixture.start()
    }

    Benchmark("HTTP cache: 1 KB GET, 304 revalidation or full · Moya full GET", configuration: configuration) { benchmark, network in
        benchmark.measurement(requestsMetric, 4096)
        for _ in 0..<4096 {
            try await network.moyaGET()
        }
    } setup: {
        try await Network.start()
    }
}

/// Providers with a memory cache on the benchmark server: one that serves fresh hits, one that
/// revalidates every request. Each is filled once before measuring.
///
/// Each has a session of its own, which owns its client, as the full GET's session does: a
/// session over a client it was given cannot know that client's connect timeout, and so leaves
/// the whole-request deadline to AsyncHTTPClient's own timer (see `TransferScope`), one timer
/// more per request than the full GET it is compared with.
struct CacheFixture: Sendable {
    let baseURL: URL
    let cached: MoyaProvider<BenchAPI>
    let revalidating: MoyaProvider<BenchAPI>

    static func start() async throws -> CacheFixture {
        let network = try await Network.start()
        func provider(_ policy: CachePolicy) -> MoyaProvider<BenchAPI> {
            MoyaProvider(session: Session(configuration: .init(cache: .memory(maxBytes: 1 << 20, policy: policy))))
        }
        let fixture = CacheFixture(
            baseURL: network.baseURL,
            cached: provider(.useProtocol),
            revalidating: provider(.alwaysRevalidate)
        )
        _ = try await fixture.cached.request(BenchAPI(baseURL: network.baseURL, operation: .getCachedJSON))
        _ = try await fixture.revalidating.request(BenchAPI(baseURL: network.baseURL, operation: .getJSON))
        return fixture
    }
}

extension CacheStatus {
    /// Whether the server confirmed the stored response.
    var isRevalidated: Bool {
        if case .revalidated = self { return true }
        return false
    }
}
