import Foundation

/// Keeps each host under a request rate, delaying requests instead of letting the server refuse
/// them: a token bucket of `burst` tokens refilled at `requestsPerSecond`.
///
/// It also listens to the server: a `429` or `503` with `Retry-After`, a
/// `RateLimit` field whose `r` (remaining) is 0 (the IETF httpapi draft, with its `t`, the
/// seconds until the quota resets), or `X-RateLimit-Remaining: 0` with `X-RateLimit-Reset`
/// (seconds, or a Unix time) hold the host's requests until then. A request that would wait
/// longer than `maximumWait` fails at once instead, with a `MoyaClientError` of code
/// `rateLimited` whose `retryAfter` says when it could go.
public struct RateLimit: Sendable {
    /// The steady rate.
    public var requestsPerSecond: Double
    /// How many requests may go at once after a quiet period.
    public var burst: Int
    /// The longest a request waits for its turn, in seconds.
    public var maximumWait: TimeInterval

    /// A limit of `requestsPerSecond`, with bursts of `burst` (at least 1).
    public init(requestsPerSecond: Double, burst: Int = 1, maximumWait: TimeInterval = 60) {
        self.requestsPerSecond = max(requestsPerSecond, 0.001)
        self.burst = max(1, burst)
        self.maximumWait = max(0, maximumWait)
    }
}

extension RateLimit {
    /// One host's bucket, apart from any clock: times are seconds on a monotonic clock.
    ///
    /// Kept as the time at which the bucket would be full again (the generic cell rate
    /// algorithm): each request moves it one interval later, and may go once it is no more than
    /// `burst` intervals ahead of now. One number, whatever the rate.
    struct StateMachine {
        /// When a request may go.
        enum Reservation: Equatable {
            /// Now, or after waiting `seconds`.
            case go(afterSeconds: Double)
            /// Not within the maximum wait; it could go in `seconds`.
            case refuse(afterSeconds: Double)
        }

        let settings: RateLimit
        private var fullAt = -Double.infinity
        /// Until when the server asked for no requests.
        private var heldUntil = -Double.infinity

        init(settings: RateLimit) {
            self.settings = settings
        }

        private var interval: Double { 1 / settings.requestsPerSecond }

        /// Whether the bucket is full and the server asked nothing at `now`: nothing to keep.
        func isIdle(now: Double) -> Bool {
            fullAt <= now && heldUntil <= now
        }

        /// Reserves a request's turn at `now`.
        mutating func reserve(now: Double) -> Reservation {
            // The bucket may run `burst - 1` intervals ahead of now: that many go at once.
            let slack = Double(settings.burst - 1) * interval
            let goAt = max(now, fullAt - slack, heldUntil)
            let wait = goAt - now
            guard wait <= settings.maximumWait else { return .refuse(afterSeconds: wait) }
            fullAt = max(fullAt, goAt) + interval
            return .go(afterSeconds: wait)
        }

        /// The server asked for no requests for `seconds` from `now`.
        mutating func hold(forSeconds seconds: Double, now: Double) {
            guard seconds > 0 else { return }
            heldUntil = max(heldUntil, now + min(seconds, 86_400))
        }
    }
}
