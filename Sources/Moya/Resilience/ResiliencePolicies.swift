import Foundation

/// The policies that keep a service calling other APIs well behaved when they degrade: set them
/// on `Session.Configuration.resilience`, and every provider using the session shares their
/// state. Each is off until set; a session without any behaves exactly as before.
///
/// ```swift
/// var configuration = Session.Configuration()
/// configuration.resilience.retryBudget = RetryBudget()
/// configuration.resilience.circuitBreaker = CircuitBreaker()
/// configuration.resilience.concurrencyLimit = ConcurrencyLimit(maximumConcurrentRequests: 16)
/// configuration.resilience.rateLimit = RateLimit(requestsPerSecond: 10, burst: 20)
/// let provider = MoyaProvider<GitHub>(session: Session(configuration: configuration))
/// ```
///
/// The breaker, the concurrency limit and the rate limit keep their state per key: by default
/// the request's scheme, host and port, or what `key` returns. The budget is the session's.
/// Their checks run before each attempt is sent, in this order: the breaker (which fails at
/// once), the rate limit (which waits for the request's turn), the concurrency limit (which
/// waits for a place). Plugins see a request they refuse fail like any other.
public struct ResiliencePolicies: Sendable {
    /// Limits retries to a share of recent requests; `nil` for none.
    public var retryBudget: RetryBudget?
    /// Stops sending to a failing host for a while; `nil` for none.
    public var circuitBreaker: CircuitBreaker?
    /// Bounds the requests in flight to one host; `nil` for no bound.
    public var concurrencyLimit: ConcurrencyLimit?
    /// Keeps each host under a request rate; `nil` for no limit.
    public var rateLimit: RateLimit?
    /// Merges identical requests in flight into one; `nil` not to.
    public var coalescing: RequestCoalescing?
    /// Which requests share the breaker's, the concurrency limit's and the rate limit's state.
    public var key: @Sendable (URLRequest) -> String
    /// The policies' clock, in seconds: a monotonic one unless a test sets its own.
    var clock: @Sendable () -> Double = ResilienceGate.uptime

    /// Policies, none set by default.
    public init(
        retryBudget: RetryBudget? = nil,
        circuitBreaker: CircuitBreaker? = nil,
        concurrencyLimit: ConcurrencyLimit? = nil,
        rateLimit: RateLimit? = nil,
        coalescing: RequestCoalescing? = nil,
        key: @escaping @Sendable (URLRequest) -> String = ResiliencePolicies.hostKey
    ) {
        self.retryBudget = retryBudget
        self.circuitBreaker = circuitBreaker
        self.concurrencyLimit = concurrencyLimit
        self.rateLimit = rateLimit
        self.coalescing = coalescing
        self.key = key
    }

    /// The default key: the URL's scheme, host and port (`https://api.example.com:443`).
    @Sendable public static func hostKey(_ request: URLRequest) -> String {
        request.url.map(HostKey.of) ?? ""
    }

    /// Whether no policy the session's gate runs is set (coalescing is the transport's).
    var isEmpty: Bool {
        retryBudget == nil && circuitBreaker == nil && concurrencyLimit == nil && rateLimit == nil
    }

    /// Whether a policy checks each attempt before it is sent (the budget only counts).
    var gatesAttempts: Bool {
        circuitBreaker != nil || concurrencyLimit != nil || rateLimit != nil
    }
}
