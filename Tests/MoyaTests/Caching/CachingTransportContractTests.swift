import Foundation
import Testing

@testable import Moya

/// The `Transport` contract kept by `CachingTransport` over a base transport the test drives.
@Suite("Caching transport contract")
struct CachingTransportContractTests {
    /// A base transport that answers when the test says so, and records cancels.
    private final class ManualTransport: Transport, Sendable {
        let pending = Synchronized<[TransportEvents]>([])
        let cancels = Counter()
        let sends = Counter()

        func send(_ exchange: Exchange, events: TransportEvents) -> TransportHandle {
            sends.increment()
            pending.update { $0.append(events) }
            return Handle(cancels: cancels)
        }

        /// Streams are not what these tests drive: the cache passes them by (see the network tests).
        func open(_ exchange: Exchange, events: StreamEvents) -> TransportHandle {
            events.head(.failure(.requestMapping("streams are not driven by this transport")))
            return Handle(cancels: cancels)
        }

        func answer(_ result: Result<Moya.Response, MoyaError>) {
            let events = pending.update { $0.removeFirst() }
            events.completion(result)
        }

        struct Handle: TransportHandle {
            let cancels: Counter
            func cancel(then stopped: @escaping @Sendable () -> Void) {
                cancels.increment()
                stopped()
            }
        }
    }

    private let url = URL(string: "https://api.example.test/items")!

    private func exchange() -> Exchange {
        Exchange(
            request: URLRequest(url: url),
            endpoint: Endpoint(
                url: url.absoluteString,
                sampleResponseClosure: { .networkResponse(200, Data()) },
                method: .get,
                task: .requestPlain,
                httpHeaderFields: nil
            ),
            deadline: nil
        )
    }

    private func storedCache() -> HTTPCache {
        let cache = HTTPCache(
            store: MemoryCacheStore(maxBytes: 1 << 20),
            policy: .useProtocol,
            storesAuthorizedResponses: false
        )
        var entry = CacheFixture.response([("Cache-Control", "max-age=600")], body: "stored")
        entry.requestTime = Date()
        entry.responseTime = Date()
        cache.store.store(entry, for: CacheKey.get(url)!)
        return cache
    }

    @Test func aHitCompletesOnceWithOneFullProgressReportAndNeverTouchesTheBase() {
        let base = ManualTransport()
        let transport = CachingTransport(base: base, cache: storedCache(), policy: .useProtocol, sessionHeaders: [:])
        let results = Synchronized<[Result<Moya.Response, MoyaError>]>([])
        let progress = Synchronized<[Double]>([])
        let events = TransportEvents(
            progress: { report in progress.update { $0.append(report.fractionCompleted) } },
            completion: { result in results.update { $0.append(result) } }
        )
        let handle = transport.send(exchange(), events: events)
        let stopped = Counter()
        handle.cancel { stopped.increment() }
        #expect(results.update { $0.count } == 1)
        #expect((try? results.update { $0[0] }.get().cacheStatus.isFromCache) == true)
        #expect(progress.update { $0 } == [1.0])
        #expect(base.sends.count == 0)
        #expect(stopped.count == 1)
    }

    @Test func aCancelWhileTheNetworkIsAskedCancelsItAndNoCompletionFollows() {
        let base = ManualTransport()
        let cache = HTTPCache(
            store: MemoryCacheStore(maxBytes: 1 << 20),
            policy: .useProtocol,
            storesAuthorizedResponses: false
        )
        let transport = CachingTransport(base: base, cache: cache, policy: .useProtocol, sessionHeaders: [:])
        let completions = Counter()
        let handle = transport.send(
            exchange(),
            events: TransportEvents(progress: { _ in }, completion: { _ in completions.increment() })
        )
        #expect(base.sends.count == 1)
        let stopped = Counter()
        handle.cancel { stopped.increment() }
        #expect(base.cancels.count == 1)
        #expect(stopped.count == 1)
        base.answer(.success(Moya.Response(statusCode: 200, data: Data())))
        #expect(completions.count == 0)
    }

    @Test func aDiskLookupCancelledBeforeItEndsNeverCompletesAndThenReportsStopped() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("moya-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = try HTTPCache.disk(directory: directory, maxBytes: 1 << 20)
        let base = ManualTransport()
        let transport = CachingTransport(base: base, cache: cache, policy: .useProtocol, sessionHeaders: [:])
        let completions = Counter()
        // Holding the I/O queue makes sure the cancel comes before the lookup.
        let gate = DispatchSemaphore(value: 0)
        cache.ioQueue?.async { gate.wait() }
        let handle = transport.send(
            exchange(),
            events: TransportEvents(progress: { _ in }, completion: { _ in completions.increment() })
        )
        await withCheckedContinuation { continuation in
            handle.cancel { continuation.resume() }
            gate.signal()
        }
        #expect(completions.count == 0)
        #expect(base.sends.count == 0)
    }
}
