import Foundation

/// Stops sending to a host that keeps failing, so that callers fail at once instead of each
/// waiting out its own timeout, and the host gets room to recover.
///
/// Closed, it counts the outcomes of the last `windowSize` calls to each host. Once at least
/// `minimumCalls` are counted and the share that failed reaches `failureRateThreshold` (or the
/// share slower than `slowCallDuration` reaches `slowCallRateThreshold`), it opens: every
/// request fails before anything is sent, with `MoyaError.underlying` holding a
/// `MoyaClientError` of code `circuitOpen` whose `retryAfter` says when the next trial is
/// allowed. After `openDuration`, it lets `halfOpenTrials` requests through: if they all
/// succeed it closes again, and the first failure opens it for another `openDuration`.
///
/// ```swift
/// var configuration = Session.Configuration()
/// configuration.resilience.circuitBreaker = CircuitBreaker(failureRateThreshold: 0.5, openDuration: 30)
/// ```
public struct CircuitBreaker: Sendable {
    /// How many of the latest calls the failure rate is computed over.
    public var windowSize: Int
    /// The fewest calls counted before the rates are judged at all.
    public var minimumCalls: Int
    /// The share of failed calls (0 to 1) that opens the breaker.
    public var failureRateThreshold: Double
    /// A call taking at least this long, in seconds, counts as slow; `nil` not to judge speed.
    public var slowCallDuration: TimeInterval?
    /// The share of slow calls (0 to 1) that opens the breaker.
    public var slowCallRateThreshold: Double
    /// How long, in seconds, the breaker stays open before it lets trial requests through.
    public var openDuration: TimeInterval
    /// How many trial requests it lets through when half-open.
    public var halfOpenTrials: Int
    /// Whether an outcome counts as a failure. By default: a transport fault (no response) or
    /// a 5xx status; a 4xx never does, and a cancel is not counted at all.
    public var isFailure: @Sendable (Result<Response, MoyaError>) -> Bool

    /// A breaker; the defaults open after half of the last 20 calls (at least 10) failed, for
    /// 30 seconds, and try 3 requests before closing.
    public init(
        windowSize: Int = 20,
        minimumCalls: Int = 10,
        failureRateThreshold: Double = 0.5,
        slowCallDuration: TimeInterval? = nil,
        slowCallRateThreshold: Double = 1,
        openDuration: TimeInterval = 30,
        halfOpenTrials: Int = 3,
        isFailure: @escaping @Sendable (Result<Response, MoyaError>) -> Bool = CircuitBreaker
            .isTransportFaultOrServerError
    ) {
        self.windowSize = max(1, windowSize)
        self.minimumCalls = min(max(1, minimumCalls), self.windowSize)
        self.failureRateThreshold = min(max(failureRateThreshold, 0), 1)
        self.slowCallDuration = slowCallDuration
        self.slowCallRateThreshold = min(max(slowCallRateThreshold, 0), 1)
        self.openDuration = max(0, openDuration)
        self.halfOpenTrials = max(1, halfOpenTrials)
        self.isFailure = isFailure
    }

    /// Where one key's breaker stands, as `MetricsPlugin` reports it.
    package enum State: Sendable, Equatable {
        /// Calls go through.
        case closed
        /// Calls fail before anything is sent.
        case open
        /// Trial calls go through.
        case halfOpen
    }

    /// The default classification: a fault without a response, or a 5xx response.
    @Sendable public static func isTransportFaultOrServerError(_ result: Result<Response, MoyaError>) -> Bool {
        switch result {
        case .success(let response):
            return response.statusCode >= 500
        case .failure(let error):
            if let response = error.response {
                return response.statusCode >= 500
            }
            return true
        }
    }
}
