import Foundation

/// Retries requests that failed for a reason likely to pass: the statuses and transport errors
/// that mean "try again later", with exponential backoff and jitter, honouring `Retry-After`.
///
/// Only idempotent methods are retried unless `retriesNonIdempotentMethods` is set, since a
/// `POST` that reached the server may have taken effect. Each attempt builds its body anew
/// from the target's `Task`, so streamed uploads are sent whole every time.
public struct RetryPolicy: RequestInterceptor {
    /// The status codes retried by default: 408, 429, 500, 502, 503, 504.
    public static let defaultRetryableStatusCodes: Set<Int> = [408, 429, 500, 502, 503, 504]

    /// The `NSURLErrorDomain` codes retried by default: timeouts and lost or failed connections.
    public static let defaultRetryableURLErrorCodes: Set<Int> = [
        NSURLErrorTimedOut,
        NSURLErrorCannotConnectToHost,
        NSURLErrorCannotFindHost,
        NSURLErrorDNSLookupFailed,
        NSURLErrorNetworkConnectionLost,
        NSURLErrorNotConnectedToInternet,
    ]

    /// The methods retried by default: those RFC 9110 calls idempotent.
    public static let idempotentMethods: Set<Moya.Method> = [.get, .head, .put, .delete, .options, .trace]

    /// How many times a request may be retried after its first attempt.
    public var retryLimit: Int
    /// The first retry waits `exponentialBackoffScale` seconds; each next one `exponentialBackoffBase` times longer.
    public var exponentialBackoffBase: Double
    /// See `exponentialBackoffBase`.
    public var exponentialBackoffScale: TimeInterval
    /// The share of each backoff delay drawn at random (0 for none, 1 for "full jitter"), so
    /// that clients that failed together do not retry together.
    public var jitter: Double
    /// The longest wait between attempts; a `Retry-After` asking for more ends the retries.
    public var maximumDelay: TimeInterval
    /// The statuses that are retried.
    public var retryableStatusCodes: Set<Int>
    /// The `NSURLErrorDomain` codes that are retried.
    public var retryableURLErrorCodes: Set<Int>
    /// Whether `POST`, `PATCH` and other non-idempotent methods are retried too.
    public var retriesNonIdempotentMethods: Bool

    /// Creates a policy. The defaults retry twice, after about 0.5 and 1 second.
    public init(
        retryLimit: Int = 2,
        exponentialBackoffBase: Double = 2,
        exponentialBackoffScale: TimeInterval = 0.5,
        jitter: Double = 0.5,
        maximumDelay: TimeInterval = 60,
        retryableStatusCodes: Set<Int> = RetryPolicy.defaultRetryableStatusCodes,
        retryableURLErrorCodes: Set<Int> = RetryPolicy.defaultRetryableURLErrorCodes,
        retriesNonIdempotentMethods: Bool = false
    ) {
        self.retryLimit = retryLimit
        self.exponentialBackoffBase = exponentialBackoffBase
        self.exponentialBackoffScale = exponentialBackoffScale
        self.jitter = min(max(jitter, 0), 1)
        self.maximumDelay = maximumDelay
        self.retryableStatusCodes = retryableStatusCodes
        self.retryableURLErrorCodes = retryableURLErrorCodes
        self.retriesNonIdempotentMethods = retriesNonIdempotentMethods
    }

    public func retry(
        _ request: URLRequest,
        for target: TargetType,
        attempt: Int,
        dueTo result: Result<Response, MoyaError>
    ) async -> RetryResult {
        decision(for: request, attempt: attempt, result: result, random: Double.random(in: 0...1))
    }

    /// The decision, with the jitter's random draw given: the whole policy without the clock.
    func decision(
        for request: URLRequest,
        attempt: Int,
        result: Result<Response, MoyaError>,
        random: Double
    ) -> RetryResult {
        guard attempt <= retryLimit, isRetryable(method: request.httpMethod), isRetryable(result) else {
            return .doNotRetry
        }
        if case .success(let response) = result, let requested = RetryAfter.delay(in: response) {
            return requested <= maximumDelay ? .retryWithDelay(requested) : .doNotRetry
        }
        let backoff = min(maximumDelay, exponentialBackoffScale * pow(exponentialBackoffBase, Double(attempt - 1)))
        return .retryWithDelay(backoff * (1 - jitter * random))
    }

    private func isRetryable(method: String?) -> Bool {
        if retriesNonIdempotentMethods { return true }
        let method = Moya.Method(rawValue: (method ?? "GET").uppercased())
        return Self.idempotentMethods.contains(method)
    }

    private func isRetryable(_ result: Result<Response, MoyaError>) -> Bool {
        switch result {
        case .success(let response):
            return retryableStatusCodes.contains(response.statusCode)
        case .failure(let error):
            guard case .underlying(let underlying, nil) = error else { return false }
            let nsError = underlying as NSError
            return nsError.domain == NSURLErrorDomain && retryableURLErrorCodes.contains(nsError.code)
        }
    }
}
