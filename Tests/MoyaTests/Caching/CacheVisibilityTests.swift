import Foundation
import LoopbackServer
import MetricsTestKit
import MoyaObservability
import Testing

@testable import Moya

@Suite("HTTP cache visibility: plugins, logger and metrics")
struct CacheVisibilityTests {
    /// Records the cache status each `didReceive` sees.
    private struct StatusPlugin: PluginType {
        let seen: Synchronized<[CacheStatus]>

        func didReceive(_ result: Result<Moya.Response, MoyaError>, target: TargetType) {
            if case .success(let response) = result {
                seen.update { $0.append(response.cacheStatus) }
            }
        }
    }

    @Test func pluginsTheLoggerAndMetricsSeeMissesHitsAndRevalidations() async throws {
        let origin = CacheOrigin()
        let clock = CacheClock()
        let metrics = TestMetrics()
        let seen = Synchronized<[CacheStatus]>([])
        let (logger, log) = LoggerFixture.logger(.default)
        try await TestServer.with({
            origin.route($0, "/seen") { headers, _ in
                if headers[.init("If-None-Match")!] != nil {
                    return .init(status: .notModified)
                }
                return .init(headers: [("Cache-Control", "max-age=10"), ("ETag", "\"s\"")], body: "seen")
            }
        }) { server in
            let provider = cachingProvider(
                .memory(clock: clock),
                plugins: [StatusPlugin(seen: seen), logger, MetricsPlugin(factory: metrics)]
            )
            let target = CacheTarget(baseURL: server.baseURL, path: "/seen")
            _ = try await provider.request(target)
            _ = try await provider.request(target)
            clock.advance(20)
            _ = try await provider.request(target)
        }
        let statuses = seen.update { $0 }
        #expect(statuses.count == 3)
        #expect(statuses.first == .miss)
        #expect(statuses.dropFirst().first?.isFromCache == true && statuses.dropFirst().first?.isRevalidated == false)
        #expect(statuses.last?.isRevalidated == true)

        let cacheEntries = log.all.filter { $0.hasPrefix("Cache: ") }
        #expect(cacheEntries.count == 3)
        #expect(cacheEntries.first == "Cache: miss")
        #expect(cacheEntries.dropFirst().first?.hasPrefix("Cache: hit (age ") == true)
        #expect(cacheEntries.last?.hasPrefix("Cache: revalidated") == true)

        let dimensions = [("target", "CacheTarget"), ("method", "GET")]
        for result in ["miss", "hit", "revalidated"] {
            #expect(
                try metrics.expectCounter("moya_cache_requests_total", dimensions + [("result", result)]).totalValue
                    == 1
            )
        }
    }

    @Test func withoutACacheTheLoggerAndMetricsAreAsBefore() async throws {
        let origin = CacheOrigin()
        let metrics = TestMetrics()
        let (logger, log) = LoggerFixture.logger(.default)
        try await TestServer.with({
            origin.route($0, "/plain") { _, _ in .init(headers: [("Cache-Control", "max-age=60")]) }
        }) {
            server in
            let provider = cachingProvider(nil, plugins: [logger, MetricsPlugin(factory: metrics)])
            let response = try await provider.request(CacheTarget(baseURL: server.baseURL, path: "/plain"))
            #expect(response.cacheStatus == .network)
        }
        #expect(!log.all.contains { $0.hasPrefix("Cache") })
        #expect(!metrics.counters.contains { $0.label == "moya_cache_requests_total" })
    }
}
