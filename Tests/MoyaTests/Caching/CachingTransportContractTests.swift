import Foundation
import Testing

@testable import Moya

/// The `Transport` contract kept by `CachingTransport` over a base transport the test drives.
@Suite("Caching transport contract")
struct CachingTransportContractTests {
    /// A base transport that answers when the test says so and, once cancelled, answers with
    /// the cancelled error after counting the cancel, as a real one does once it wound down.
    private final class ManualTransport: StreamTransport, Sendable {
        let pending = Synchronized<[TransportEvents]>([])
        let cancels = Counter()
        let sends = Counter()

        func send(_ exchange: TransportExchange, events: TransportEvents) {
            sends.increment()
            pending.update { $0.append(events) }
            exchange.cancellation.onCancel { [self] in
                cancels.increment()
                answer(.failure(TransportCancellation.error(url: nil)))
            }
        }

        /// Streams are not what these tests drive: the cache passes them by (see the network tests).
        func open(_ exchange: TransportExchange, events: StreamEvents) {
            events.head(.failure(.requestMapping("streams are not driven by this transport")))
        }

        func answer(_ result: Result<Moya.Response, MoyaError>) {
            let events = pending.update { $0.isEmpty ? nil : $0.removeFirst() }
            events?.completion(result)
        }
    }

    private let url = URL(string: "https://api.example.test/items")!

    private let cancellation = TransportCancellation()

    private func exchange() -> TransportExchange {
        TransportExchange(
            request: URLRequest(url: url),
            endpoint: Endpoint(
                url: url.absoluteString,
                sampleResponseClosure: { .networkResponse(200, Data()) },
                method: .get,
                task: .requestPlain,
                httpHeaderFields: nil
            ),
            deadline: nil,
            cancellation: cancellation
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
        transport.send(exchange(), events: events)
        cancellation.cancel()
        #expect(results.update { $0.count } == 1, "a cancel after the answer adds nothing")
        #expect((try? results.update { $0[0] }.get().cacheStatus.isFromCache) == true)
        #expect(progress.update { $0 } == [1.0])
        #expect(base.sends.count == 0)
    }

    @Test func aCancelWhileTheNetworkIsAskedReachesTheBaseAndCompletesOnceCancelled() {
        let base = ManualTransport()
        let cache = HTTPCache(
            store: MemoryCacheStore(maxBytes: 1 << 20),
            policy: .useProtocol,
            storesAuthorizedResponses: false
        )
        let transport = CachingTransport(base: base, cache: cache, policy: .useProtocol, sessionHeaders: [:])
        let results = Synchronized<[Result<Moya.Response, MoyaError>]>([])
        transport.send(
            exchange(),
            events: TransportEvents(progress: { _ in }, completion: { result in results.update { $0.append(result) } })
        )
        #expect(base.sends.count == 1)
        cancellation.cancel()
        #expect(base.cancels.count == 1)
        base.answer(.success(Moya.Response(statusCode: 200, data: Data())))
        let all = results.update { $0 }
        #expect(all.count == 1)
        #expect(all.first.map { if case .failure(let error) = $0 { error.isCancellation } else { false } } == true)
    }

    @Test func aDiskLookupCancelledBeforeItEndsCompletesCancelledAndNeverAsksTheBase() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("moya-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = try HTTPCache.disk(directory: directory, maxBytes: 1 << 20)
        let base = ManualTransport()
        let transport = CachingTransport(base: base, cache: cache, policy: .useProtocol, sessionHeaders: [:])
        // Holding the I/O queue makes sure the cancel comes before the lookup.
        let gate = DispatchSemaphore(value: 0)
        cache.ioQueue?.async { gate.wait() }
        let result = await withCheckedContinuation { continuation in
            transport.send(
                exchange(),
                events: TransportEvents(progress: { _ in }, completion: { continuation.resume(returning: $0) })
            )
            cancellation.cancel()
            gate.signal()
        }
        guard case .failure(let error) = result else {
            Issue.record("expected the cancel, got \(result)")
            return
        }
        #expect(error.isCancellation)
        #expect(base.sends.count == 0)
    }
}
