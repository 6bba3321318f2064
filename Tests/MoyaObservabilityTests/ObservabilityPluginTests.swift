import Foundation
import Hummingbird
import InMemoryTracing
import LoopbackServer
import Metrics
import MetricsTestKit
import Moya
import MoyaObservability
import NIOConcurrencyHelpers
import NIOCore
import Testing
import Tracing

@Suite("Tracing and metrics plugins")
struct ObservabilityPluginTests {
    private func addRoutes(_ router: Router<BasicRequestContext>, headers: NIOLockedValueBox<[String: String]>) {
        router.get("users/:name") { request, _ -> Response in
            var seen: [String: String] = [:]
            for field in request.headers {
                seen[field.name.canonicalName] = field.value
            }
            headers.withLockedValue { $0 = seen }
            return Response(status: .ok)
        }
        router.get("broken") { _, _ in Response(status: .internalServerError) }
    }

    @Test func aRequestIsASpanNamedAfterTheCaseAroundOneClientSpanForItsAttemptWithRedactedURLs() async throws {
        let tracer = InMemoryTracer()
        let headers = NIOLockedValueBox<[String: String]>([:])
        try await TestServer.with({ addRoutes($0, headers: headers) }) { server in
            let provider = MoyaProvider<ObservedAPI>(plugins: [TracingPlugin(tracer: tracer)])
            _ = try await provider.request(.user(baseURL: server.baseURL, name: "octocat"))

            let spans = tracer.finishedSpans
            #expect(spans.count == 2)
            let span = try #require(spans.first { $0.operationName == "ObservedAPI.user" })
            let attempt = try #require(spans.first { $0.operationName == "GET" })
            #expect(span.kind == .internal)
            #expect(attempt.kind == .client)
            #expect(attempt.parentSpanID == span.spanID)
            #expect(attempt.attributes["http.request.resend_count"] == nil)
            for described in [span, attempt] {
                #expect(described.attributes["http.request.method"]?.toSpanAttribute() == "GET")
                #expect(described.attributes["http.response.status_code"]?.toSpanAttribute() == 200)
                let url = "\(described.attributes["url.full"]?.toSpanAttribute() ?? "")"
                #expect(url.contains("/users/octocat"))
                #expect(url.contains("token=REDACTED"))
                #expect(!url.contains("s3cr3t"))
                #expect(described.status == nil)
            }

            // The attempt's propagation headers went out with it.
            let injected = try #require(tracer.performedContextInjections.first)
            #expect(tracer.performedContextInjections.count == 1)
            for (key, value) in injected.values {
                #expect(headers.withLockedValue { $0 }[key] == value)
            }
            #expect(!injected.values.isEmpty)
            #expect(injected.context.inMemorySpanContext?.spanID == attempt.spanID)
        }
    }

    @Test func aRetriedRequestHasOneClientSpanPerAttemptEachSendingItsOwnContext() async throws {
        let tracer = InMemoryTracer()
        let calls = NIOLockedValueBox(0)
        try await TestServer.with({ router in
            router.get("broken") { _, _ in
                let call = calls.withLockedValue { calls in
                    calls += 1
                    return calls
                }
                return Response(status: call == 1 ? .serviceUnavailable : .ok)
            }
        }) { server in
            let provider = MoyaProvider<ObservedAPI>(
                plugins: [TracingPlugin(tracer: tracer)],
                interceptor: RetryPolicy(retryLimit: 2, exponentialBackoffScale: 0.01)
            )
            _ = try await provider.request(.broken(baseURL: server.baseURL))
        }
        let request = try #require(tracer.finishedSpans.first { $0.operationName == "ObservedAPI.broken" })
        let attempts = tracer.finishedSpans.filter { $0.operationName == "GET" }
        #expect(attempts.count == 2)
        #expect(attempts.allSatisfy { $0.parentSpanID == request.spanID && $0.kind == .client })
        #expect(attempts.map { $0.attributes["http.response.status_code"]?.toSpanAttribute() } == [503, 200])
        #expect(attempts.first?.status?.code == .error)
        #expect(attempts.last?.attributes["http.request.resend_count"]?.toSpanAttribute() == 1)
        #expect(request.attributes["http.response.status_code"]?.toSpanAttribute() == 200)
        #expect(request.status == nil)
        let injected = tracer.performedContextInjections.compactMap { $0.context.inMemorySpanContext?.spanID }
        #expect(injected == attempts.map(\.spanID))
        #expect(tracer.activeSpans.isEmpty)
    }

    @Test func aServerErrorMarksTheSpanAsAnError() async throws {
        let tracer = InMemoryTracer()
        try await TestServer.with({ addRoutes($0, headers: NIOLockedValueBox([:])) }) { server in
            let provider = MoyaProvider<ObservedAPI>(plugins: [TracingPlugin(tracer: tracer)])
            _ = try await provider.request(.broken(baseURL: server.baseURL))
        }
        #expect(tracer.finishedSpans.count == 2)
        for span in tracer.finishedSpans {
            #expect(span.status?.code == .error)
            #expect(span.attributes["http.response.status_code"]?.toSpanAttribute() == 500)
        }
    }

    @Test func aFailedRequestRecordsTheErrorOnItsSpan() async throws {
        let tracer = InMemoryTracer()
        let provider = MoyaProvider<ObservedAPI>(plugins: [TracingPlugin(tracer: tracer)])
        _ = try? await provider.request(.broken(baseURL: TestServer.unreachableBaseURL))
        #expect(tracer.finishedSpans.count == 2)
        for span in tracer.finishedSpans {
            #expect(span.status?.code == .error)
            #expect(span.errors.count == 1)
        }
        #expect(tracer.activeSpans.isEmpty)
    }

    @Test func theSpanIsAChildOfTheCallersContext() async throws {
        let tracer = InMemoryTracer()
        let provider = MoyaProvider<ObservedAPI>(
            stubClosure: MoyaProvider.immediatelyStub,
            plugins: [TracingPlugin(tracer: tracer)]
        )
        let parent = tracer.startSpan("parent")
        try await ServiceContext.withValue(parent.context) {
            _ = try await provider.request(.user(baseURL: URL(fileURLWithPath: "/"), name: "a"))
        }
        parent.end()
        let child = try #require(tracer.finishedSpans.first { $0.operationName == "ObservedAPI.user" })
        let finishedParent = try #require(tracer.finishedSpans.first { $0.operationName == "parent" })
        #expect(child.parentSpanID == finishedParent.spanID)
        #expect(child.traceID == finishedParent.traceID)
    }

    @Test func metricsCountByTargetMethodAndStatusClassAndTimeEachRequest() async throws {
        let metrics = TestMetrics()
        try await TestServer.with({ addRoutes($0, headers: NIOLockedValueBox([:])) }) { server in
            let provider = MoyaProvider<ObservedAPI>(plugins: [MetricsPlugin(factory: metrics)])
            _ = try await provider.request(.user(baseURL: server.baseURL, name: "a"))
            _ = try await provider.request(.user(baseURL: server.baseURL, name: "b"))
            _ = try await provider.request(.broken(baseURL: server.baseURL))
        }
        let user = [("target", "ObservedAPI.user"), ("method", "GET")]
        let broken = [("target", "ObservedAPI.broken"), ("method", "GET")]
        #expect(try metrics.expectCounter("moya_requests_total", user + [("status_class", "2xx")]).totalValue == 2)
        #expect(try metrics.expectCounter("moya_requests_total", broken + [("status_class", "5xx")]).totalValue == 1)
        #expect(try metrics.expectTimer("moya_request_duration", user).values.count == 2)
        let inFlight = try metrics.expectMeter("moya_requests_in_flight", user)
        #expect(inFlight.values.last == 0)
        #expect(inFlight.values.max() == 1)
    }

    @Test func aRequestAnOpenCircuitBreakerRefusesIsCountedAsARejection() async throws {
        let metrics = TestMetrics()
        try await TestServer.with({ addRoutes($0, headers: NIOLockedValueBox([:])) }) { server in
            var configuration = Session.Configuration(cookieStorage: nil)
            configuration.resilience.circuitBreaker = CircuitBreaker(windowSize: 1, minimumCalls: 1)
            let provider = MoyaProvider<ObservedAPI>(
                session: Session(configuration: configuration),
                plugins: [MetricsPlugin(factory: metrics)]
            )
            _ = try await provider.request(.broken(baseURL: server.baseURL))
            _ = try? await provider.request(.broken(baseURL: server.baseURL))
        }
        let broken = [("target", "ObservedAPI.broken"), ("method", "GET")]
        let rejections = try metrics.expectCounter(
            "moya_resilience_rejections_total",
            broken + [("policy", "circuitOpen")]
        )
        #expect(rejections.totalValue == 1)
        #expect(try metrics.expectCounter("moya_requests_total", broken + [("status_class", "5xx")]).totalValue == 1)
        #expect(try metrics.expectCounter("moya_requests_total", broken + [("status_class", "error")]).totalValue == 1)
    }

    @Test func theBreakersStateIsAGaugePerHostThatFollowsEveryChange() async throws {
        let metrics = TestMetrics()
        let key = NIOLockedValueBox("")
        try await TestServer.with({ addRoutes($0, headers: NIOLockedValueBox([:])) }) { server in
            var configuration = Session.Configuration(cookieStorage: nil)
            // Opens on one failure, lets one trial through at once, and closes on its success.
            configuration.resilience.circuitBreaker = CircuitBreaker(
                windowSize: 1,
                minimumCalls: 1,
                openDuration: 0,
                halfOpenTrials: 1
            )
            let provider = MoyaProvider<ObservedAPI>(
                session: Session(configuration: configuration),
                plugins: [MetricsPlugin(factory: metrics)]
            )
            _ = try await provider.request(.broken(baseURL: server.baseURL))
            _ = try await provider.request(.user(baseURL: server.baseURL, name: "a"))
            key.withLockedValue { $0 = "http://127.0.0.1:\(server.baseURL.port ?? 0)" }
        }
        let gauge = try metrics.expectGauge("moya_circuit_breaker_state", [("key", key.withLockedValue { $0 })])
        #expect(gauge.values == [2, 1, 0])
    }

    @Test func aRequestCancelledBeforeSendingLeavesTheInFlightMeterAlone() async {
        let metrics = TestMetrics()
        let provider = MoyaProvider<ObservedAPI>(
            requestClosure: { _, _ in
                // Never answers.
            },
            stubClosure: MoyaProvider.immediatelyStub,
            plugins: [MetricsPlugin(factory: metrics)]
        )
        let task = _Concurrency.Task { try await provider.request(.broken(baseURL: URL(fileURLWithPath: "/"))) }
        task.cancel()
        _ = await task.result
        #expect(metrics.meters.isEmpty)
        #expect(metrics.counters.isEmpty)
    }
}

/// A small API whose cases name the spans.
private enum ObservedAPI: TargetType {
    case user(baseURL: URL, name: String)
    case broken(baseURL: URL)

    var baseURL: URL {
        switch self {
        case .user(let url, _), .broken(let url): return url
        }
    }

    var path: String {
        switch self {
        case .user(_, let name): return "/users/\(name)"
        case .broken: return "/broken"
        }
    }

    var method: Moya.Method { .get }

    var task: Moya.Task {
        switch self {
        case .user: return .requestParameters(parameters: ["token": "s3cr3t"], encoding: URLEncoding.queryString)
        case .broken: return .requestPlain
        }
    }

    var headers: [String: String]? { nil }
}
