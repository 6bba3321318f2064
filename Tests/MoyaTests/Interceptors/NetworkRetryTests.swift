import Foundation
import HTTPTypes
import Hummingbird
import LoopbackServer
import Moya
import NIOCore
import Testing

@Suite("Retries against a flaky local server")
struct NetworkRetryTests {
    /// Retries at once, so the tests wait on nothing but the server.
    private let quickPolicy = RetryPolicy(exponentialBackoffScale: 0.001, jitter: 0)

    /// `/flaky` answers 503 `failures` times, then 200; `/busy` answers 429 with
    /// `Retry-After: 0` once, then 200; `/down` always answers 503. Every hit is counted.
    private func addFlakyRoutes(
        _ router: Router<BasicRequestContext>,
        failures: Int,
        hits: Counter,
        bodies: Synchronized<[Int]>
    ) {
        router.on("flaky", method: .get) { _, _ -> Response in
            Response(status: hits.increment() <= failures ? .serviceUnavailable : .ok)
        }
        router.post("flaky") { request, _ -> Response in
            let body = try await request.body.collect(upTo: 16 << 20)
            bodies.update { $0.append(body.readableBytes) }
            return Response(status: hits.increment() <= failures ? .serviceUnavailable : .ok)
        }
        router.get("busy") { _, _ -> Response in
            guard hits.increment() > 1 else {
                return Response(status: .tooManyRequests, headers: [.retryAfter: "0"])
            }
            return Response(status: .ok)
        }
        router.get("down") { _, _ -> Response in
            hits.increment()
            return Response(status: .serviceUnavailable)
        }
    }

    @Test func aFlakyEndpointSucceedsAfterRetriesAndPluginsSeeOneRequest() async throws {
        let hits = Counter()
        let log = EventLog()
        try await TestServer.with({ addFlakyRoutes($0, failures: 2, hits: hits, bodies: Synchronized([])) }) { server in
            let provider = MoyaProvider<DynamicTarget>(
                plugins: [RecordingPlugin(name: "p", log: log)],
                interceptor: quickPolicy
            )
            let response = try await provider.request(DynamicTarget(baseURL: server.baseURL, path: "/flaky"))
            #expect(response.statusCode == 200)
        }
        #expect(hits.count == 3)
        #expect(log.all == ["p.prepare", "p.willSend", "p.didReceive", "p.process"])
    }

    @Test func aPostIsNotRetriedByDefault() async throws {
        let hits = Counter()
        try await TestServer.with({ addFlakyRoutes($0, failures: 2, hits: hits, bodies: Synchronized([])) }) { server in
            let provider = MoyaProvider<DynamicTarget>(interceptor: quickPolicy)
            let target = DynamicTarget(
                baseURL: server.baseURL,
                path: "/flaky",
                method: .post,
                makeTask: { .requestData(Data("x".utf8)) }
            )
            let response = try await provider.request(target)
            #expect(response.statusCode == 503)
        }
        #expect(hits.count == 1)
    }

    @Test func aRetriedUploadSendsTheWholeFileEveryTime() async throws {
        let hits = Counter()
        let bodies = Synchronized<[Int]>([])
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("moya-retry-\(UUID().uuidString).bin")
        try Data(repeating: 5, count: 300_000).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }

        try await TestServer.with({ addFlakyRoutes($0, failures: 1, hits: hits, bodies: bodies) }) { server in
            var policy = quickPolicy
            policy.retriesNonIdempotentMethods = true
            let provider = MoyaProvider<DynamicTarget>(interceptor: policy)
            let target = DynamicTarget(
                baseURL: server.baseURL,
                path: "/flaky",
                method: .post,
                makeTask: { .uploadFile(file) }
            )
            let response = try await provider.request(target)
            #expect(response.statusCode == 200)
        }
        #expect(bodies.update { $0 } == [300_000, 300_000])
    }

    @Test func retryAfterIsHonoured() async throws {
        let hits = Counter()
        try await TestServer.with({ addFlakyRoutes($0, failures: 0, hits: hits, bodies: Synchronized([])) }) { server in
            // A backoff of ten minutes: only the server's `Retry-After: 0` lets this finish.
            let provider = MoyaProvider<DynamicTarget>(
                interceptor: RetryPolicy(exponentialBackoffScale: 600, jitter: 0)
            )
            let response = try await provider.request(DynamicTarget(baseURL: server.baseURL, path: "/busy"))
            #expect(response.statusCode == 200)
        }
        #expect(hits.count == 2)
    }

    @Test func retriesStopAtTheLimitAndValidationSeesTheLastResponse() async throws {
        let hits = Counter()
        try await TestServer.with({ addFlakyRoutes($0, failures: 0, hits: hits, bodies: Synchronized([])) }) { server in
            var policy = quickPolicy
            policy.retryLimit = 3
            let provider = MoyaProvider<DynamicTarget>(interceptor: policy)
            let target = DynamicTarget(baseURL: server.baseURL, path: "/down", validationType: .successCodes)
            do {
                _ = try await provider.request(target)
                Issue.record("a server that stays down must fail validation")
            } catch {
                guard case .underlying(let inner, let response)? = error as? MoyaError,
                    case .statusCode? = inner as? MoyaError
                else {
                    Issue.record("expected Moya's validation error, got \(error)")
                    return
                }
                #expect(response?.statusCode == 503)
            }
        }
        #expect(hits.count == 4)
    }

    @Test func aTargetsOwnRetryPolicyApplies() async throws {
        let hits = Counter()
        try await TestServer.with({ addFlakyRoutes($0, failures: 1, hits: hits, bodies: Synchronized([])) }) { server in
            let provider = MoyaProvider<PolicyTarget>()
            let response = try await provider.request(
                PolicyTarget(baseURL: server.baseURL, path: "/flaky", retryPolicy: quickPolicy)
            )
            #expect(response.statusCode == 200)
        }
        #expect(hits.count == 2)
    }

    @Test func aTargetsOwnTimeoutApplies() async throws {
        try await TestServer.with({ router in
            router.get("stall") { _, _ -> Response in
                try await _Concurrency.Task.sleep(for: .seconds(60))
                return Response(status: .ok)
            }
        }) { server in
            let provider = MoyaProvider<PolicyTarget>()
            let started = ContinuousClock.now
            do {
                _ = try await provider.request(
                    PolicyTarget(baseURL: server.baseURL, path: "/stall", timeoutInterval: 0.3)
                )
                Issue.record("a stalled server must time out")
            } catch {
                guard case .underlying(let inner, nil)? = error as? MoyaError else {
                    Issue.record("expected .underlying, got \(error)")
                    return
                }
                #expect((inner as NSError).code == NSURLErrorTimedOut)
            }
            #expect(ContinuousClock.now - started < .seconds(30))
        }
    }
}

/// A target that sets its own timeout and retry policy.
private struct PolicyTarget: TargetType, RequestPolicies {
    var baseURL: URL
    var path: String
    var timeoutInterval: TimeInterval? = nil
    var retryPolicy: RetryPolicy? = nil
    var method: Moya.Method { .get }
    var task: Moya.Task { .requestPlain }
    var headers: [String: String]? { nil }
}
