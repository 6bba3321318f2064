import Foundation
import Metrics
import Moya
import NIOConcurrencyHelpers

/// Measures requests with swift-metrics, per target (named as `GitHub.userProfile`) and method:
///
/// - `moya_requests_total`, a counter, also by `status_class` (`2xx` ... `5xx`, `error`, or
///   `cancelled`);
/// - `moya_request_duration`, a timer, from `willSend` to the response;
/// - `moya_requests_in_flight`, a meter, up on `willSend` and down on the response.
/// - `moya_cache_requests_total`, a counter of the requests an `HTTPCache` took part in, by
///   `result`: `hit`, `miss`, `revalidated`, `stale` (served after a network failure) or
///   `unsatisfiable` (`only-if-cached` with nothing stored).
/// - `moya_resilience_rejections_total`, a counter of the requests a session's resilience
///   policy refused before sending, by `policy`: `circuitOpen`, `rateLimited` or
///   `concurrencyLimitReached` (see `ResiliencePolicies`).
/// - `moya_cache_failures_total`, a counter of the failures of the session's `HTTPCache`'s own
///   storage, by `kind`: `write`, `read` or `damagedEntry` (see `HTTPCache.Failure`). The
///   provider hands its session's cache to the plugin when it is made.
/// - `moya_circuit_breaker_state`, a gauge per `key` of the session's `CircuitBreaker` (the
///   host, as `https://api.example.com:443`, unless the policies name another key): `0`
///   closed, `1` half-open, `2` open, set when the breaker changes state. The provider hands
///   its session's breaker to the plugin when it is made; a breaker goes half-open when its
///   first trial request is admitted.
public final class MetricsPlugin: PluginType, CacheFailureObserver, CircuitStateObserver, Sendable {
    private struct InFlight {
        var start: ContinuousClock.Instant
        var target: String
        var method: String
    }

    private let factory: any MetricsFactory
    private let inFlight = NIOLockedValueBox<[String: InFlight]>([:])

    /// Creates a plugin that reports to `factory`: by default, the one bootstrapped in
    /// `MetricsSystem`.
    public init(factory: any MetricsFactory = MetricsSystem.factory) {
        self.factory = factory
    }

    /// Starts the request's timer and counts it in flight.
    public func willSend(_ request: RequestType, target: TargetType) {
        guard let requestID = RequestContext.current?.requestID else { return }
        let entry = InFlight(
            start: .now,
            target: TargetName.of(target),
            method: request.request?.httpMethod ?? "GET"
        )
        inFlight.withLockedValue { $0[requestID] = entry }
        meter(for: entry).increment()
    }

    /// Counts the request by status class (and by the cache's part), records its duration and
    /// takes it out of flight.
    public func didReceive(_ result: Result<Response, MoyaError>, target: TargetType) {
        // A request cancelled before it was sent is heard here without a `willSend`.
        guard let requestID = RequestContext.current?.requestID,
            let entry = inFlight.withLockedValue({ $0.removeValue(forKey: requestID) })
        else { return }
        meter(for: entry).decrement()
        let dimensions = [("target", entry.target), ("method", entry.method)]
        Counter(
            label: "moya_requests_total",
            dimensions: dimensions + [("status_class", Self.statusClass(of: result))],
            factory: factory
        )
        .increment()
        if let policy = Self.rejectingPolicy(of: result) {
            Counter(
                label: "moya_resilience_rejections_total",
                dimensions: dimensions + [("policy", policy)],
                factory: factory
            )
            .increment()
        }
        if let cacheResult = Self.cacheResult(of: result) {
            Counter(
                label: "moya_cache_requests_total",
                dimensions: dimensions + [("result", cacheResult)],
                factory: factory
            )
            .increment()
        }
        let elapsed = ContinuousClock.now - entry.start
        Metrics.Timer(label: "moya_request_duration", dimensions: dimensions, factory: factory)
            .recordNanoseconds(
                elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000
            )
    }

    /// Counts a failure of a cache's storage; called by the cache.
    package func cacheFailed(_ failure: HTTPCache.Failure) {
        Counter(label: "moya_cache_failures_total", dimensions: [("kind", failure.kind.rawValue)], factory: factory)
            .increment()
    }

    /// Sets the breaker's gauge for `key`; called by the session's resilience gate.
    package func circuitChanged(key: String, to state: CircuitBreaker.State) {
        let value: Int64
        switch state {
        case .closed: value = 0
        case .halfOpen: value = 1
        case .open: value = 2
        }
        Gauge(label: "moya_circuit_breaker_state", dimensions: [("key", key)], factory: factory).record(value)
    }

    private func meter(for entry: InFlight) -> Meter {
        Meter(
            label: "moya_requests_in_flight",
            dimensions: [("target", entry.target), ("method", entry.method)],
            factory: factory
        )
    }

    /// The cache's part in the response, or `nil` when no cache took part.
    static func cacheResult(of result: Result<Response, MoyaError>) -> String? {
        let response: Response?
        switch result {
        case .success(let received): response = received
        case .failure(let error): response = error.response
        }
        switch response?.cacheStatus {
        case .hit: return "hit"
        case .miss: return "miss"
        case .revalidated: return "revalidated"
        case .staleIfError: return "stale"
        case .unsatisfiable: return "unsatisfiable"
        case .network, nil: return nil
        }
    }

    /// The resilience policy that refused the request, if one did.
    static func rejectingPolicy(of result: Result<Response, MoyaError>) -> String? {
        guard case .failure(let error) = result, let code = error.clientError?.code else { return nil }
        switch code {
        case .circuitOpen, .rateLimited, .concurrencyLimitReached: return code.description
        default: return nil
        }
    }

    static func statusClass(of result: Result<Response, MoyaError>) -> String {
        switch result {
        case .success(let response):
            return "\(response.statusCode / 100)xx"
        case .failure(let error):
            if error.isCancellation { return "cancelled" }
            if let statusCode = error.response?.statusCode { return "\(statusCode / 100)xx" }
            return "error"
        }
    }
}
