import Foundation
import Hummingbird
import Logging
import LoopbackServer
import MetricsTestKit
import MoyaObservability
import Testing

@testable import Moya

/// A disk cache whose storage breaks under it keeps requests working, and says so: in
/// `health`, as a warning in the session's logger (once per kind), and in `MetricsPlugin`.
@Suite("HTTP cache health over the network")
struct CacheHealthTests {
    private struct Fixture {
        let cache: HTTPCache
        let provider: MoyaProvider<CacheTarget>
        let warnings: Synchronized<[Logger.Metadata]>
        let metrics: TestMetrics
        let directory: URL

        /// Returns once the cache's I/O queue has done what the last request gave it.
        func drained() {
            cache.ioQueue?.sync {}
        }

        func failureWarnings(_ kind: HTTPCache.Failure.Kind) -> Int {
            warnings.update { $0 }.filter { $0["moya.cache.failure"] == "\(kind.rawValue)" }.count
        }

        func countedFailures(_ kind: HTTPCache.Failure.Kind) -> Int64 {
            (try? metrics.expectCounter("moya_cache_failures_total", [("kind", kind.rawValue)]).totalValue) ?? 0
        }
    }

    private func fixture() throws -> Fixture {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("moya-cache-\(UUID().uuidString)")
        let cache = try HTTPCache.disk(directory: directory, maxBytes: 1 << 20)
        let warnings = Synchronized<[Logger.Metadata]>([])
        let logger = Logger(label: "cache-health") { _ in MetadataRecordingLogHandler(records: warnings) }
        let metrics = TestMetrics()
        let provider = MoyaProvider<CacheTarget>(
            session: Session(configuration: .init(logger: logger, cache: cache, cookieStorage: nil)),
            plugins: [MetricsPlugin(factory: metrics)]
        )
        return Fixture(cache: cache, provider: provider, warnings: warnings, metrics: metrics, directory: directory)
    }

    private func cacheableOrigin(_ origin: CacheOrigin) -> (Router<BasicRequestContext>) -> Void {
        { router in
            for path in ["/a", "/b", "/c"] {
                origin.route(router, path) { _, _ in .init(headers: [("Cache-Control", "max-age=600")], body: path) }
            }
        }
    }

    @Test func aDeletedDirectoryIsReportedOncePerKindWhileRequestsGoOnOverTheNetwork() async throws {
        let origin = CacheOrigin()
        let fixture = try fixture()
        try await TestServer.with(cacheableOrigin(origin)) { server in
            let target = { (path: String) in CacheTarget(baseURL: server.baseURL, path: path) }
            _ = try await fixture.provider.request(target("/a"))
            fixture.drained()
            #expect(
                fixture.cache.health
                    == HTTPCache.Health(
                        entries: 1,
                        bytes: fixture.cache.currentBytes,
                        failureCounts: [:],
                        lastFailure: nil
                    )
            )

            try FileManager.default.removeItem(at: fixture.directory)
            // The stored entry is gone: a read failure, then a write failure storing it again.
            let again = try await fixture.provider.request(target("/a"))
            fixture.drained()
            #expect(try again.mapString() == "/a")
            for path in ["/b", "/c"] {
                #expect(try await fixture.provider.request(target(path)).statusCode == 200)
                fixture.drained()
            }

            let health = fixture.cache.health
            #expect(health.failureCounts[.read] == 1)
            #expect(health.failureCounts[.write] == 3)
            #expect(health.lastFailure?.kind == .write)
            #expect(health.lastFailure?.description.contains(fixture.directory.lastPathComponent) == true)
            #expect(!health.isHealthy)
            #expect(fixture.failureWarnings(.write) == 1)
            #expect(fixture.failureWarnings(.read) == 1)
            #expect(fixture.countedFailures(.write) == 3)
            #expect(fixture.countedFailures(.read) == 1)
            #expect(origin.hits("/a") == 2)
        }
    }

    @Test func aDirectoryReplacedByAFileIsAWriteFailureAndNothingIsDeleted() async throws {
        let origin = CacheOrigin()
        let fixture = try fixture()
        try await TestServer.with(cacheableOrigin(origin)) { server in
            try FileManager.default.removeItem(at: fixture.directory)
            try Data("not a directory".utf8).write(to: fixture.directory)
            let response = try await fixture.provider.request(CacheTarget(baseURL: server.baseURL, path: "/b"))
            fixture.drained()
            #expect(response.statusCode == 200)
            #expect(fixture.cache.health.failureCounts[.write] == 1)
            #expect(fixture.failureWarnings(.write) == 1)
            #expect(try String(contentsOf: fixture.directory, encoding: .utf8) == "not a directory")
        }
    }

    @Test func aDamagedEntryIsRemovedAndSaysSo() async throws {
        let origin = CacheOrigin()
        let fixture = try fixture()
        try await TestServer.with(cacheableOrigin(origin)) { server in
            let target = CacheTarget(baseURL: server.baseURL, path: "/c")
            _ = try await fixture.provider.request(target)
            fixture.drained()
            let files = try FileManager.default.contentsOfDirectory(atPath: fixture.directory.path)
            #expect(files.count == 1)
            for file in files {
                try Data("garbage".utf8).write(to: fixture.directory.appendingPathComponent(file))
            }
            let response = try await fixture.provider.request(target)
            fixture.drained()
            #expect(response.cacheStatus == .miss)
            #expect(fixture.cache.health.failureCounts[.damagedEntry] == 1)
            #expect(fixture.failureWarnings(.damagedEntry) == 1)
            #expect(fixture.countedFailures(.damagedEntry) == 1)
            // Stored anew from the network, in a healthy directory.
            #expect(fixture.cache.health.entries == 1)
        }
    }
}

@Suite("CacheFailureLog's throttle")
struct CacheFailureLogStateTests {
    private func failure(_ kind: HTTPCache.Failure.Kind, at seconds: TimeInterval) -> HTTPCache.Failure {
        HTTPCache.Failure(kind: kind, reason: "test", date: Date(timeIntervalSince1970: 1_000_000 + seconds))
    }

    @Test func eachKindWarnsOnceAMinuteAndEveryFailureIsCounted() {
        var state = CacheFailureLog.State()
        let warned = [
            state.record(failure(.write, at: 0)),
            state.record(failure(.write, at: 1)),
            state.record(failure(.read, at: 2)),
            state.record(failure(.write, at: 59)),
            state.record(failure(.write, at: 60)),
        ]
        #expect(warned == [true, false, true, false, true])
        #expect(state.counts == [.write: 4, .read: 1])
        #expect(state.last?.kind == .write)
    }

    @Test func aClockSetBackDoesNotSilenceTheLog() {
        var state = CacheFailureLog.State()
        let first = state.record(failure(.read, at: 100))
        let afterTheClockWentBack = state.record(failure(.read, at: 10))
        #expect(first)
        #expect(afterTheClockWentBack)
    }
}
