import Foundation

/// Keeps each host under a request rate, delaying requests instead of letting the server refuse
/// them: a token bucket of `burst` tokens refilled at `requestsPerSecond`.
///
/// It also listens to the server: a `429` or `503` with `Retry-After`, a
/// `RateLimit` field whose `r` (remaining) is 0 (the IETF httpapi draft, with its `t`, the
/// seconds until the quota resets), or `X-RateLimit-Remaining: 0` with `X-RateLimit-Reset`
/// (seconds, or a Unix time) hold the host's requests until then; the same fields with requests
/// left spread the host's requests over the time until the quota resets, and a
/// `RateLimit-Policy` (`"default";q=100;w=60`) slows the host's rate to the policy's when it is
/// the slower, so that the quota is not spent before it renews. A request that would wait
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
        /// The spacing the server's remaining quota asks for, and until when.
        private var pace: (interval: Double, until: Double)?
        /// The spacing the server's stated policy asks for.
        private var policyInterval: Double?

        init(settings: RateLimit) {
            self.settings = settings
        }

        private var interval: Double { 1 / settings.requestsPerSecond }

        /// Whether the bucket is full and the server asked nothing at `now`: nothing to keep.
        func isIdle(now: Double) -> Bool {
            fullAt <= now && heldUntil <= now && (pace?.until ?? now) <= now
        }

        /// Reserves a request's turn at `now`.
        mutating func reserve(now: Double) -> Reservation {
            var spacing = max(interval, policyInterval ?? 0)
            // The bucket may run `burst - 1` intervals ahead of now: that many go at once,
            // unless the server's remaining quota is being spread out.
            var slack = Double(settings.burst - 1) * spacing
            if let pace, now < pace.until {
                spacing = max(spacing, pace.interval)
                slack = 0
            }
            let goAt = max(now, fullAt - slack, heldUntil)
            let wait = goAt - now
            guard wait <= settings.maximumWait else { return .refuse(afterSeconds: wait) }
            fullAt = max(fullAt, goAt) + spacing
            return .go(afterSeconds: wait)
        }

        /// Follows what a response from the host asked, at `now`.
        mutating func follow(_ hints: RateLimitHints.Hints, now: Double) {
            if let pause = hints.pause {
                hold(forSeconds: pause, now: now)
            }
            if let (interval, seconds) = hints.pace, interval > 0, seconds > 0 {
                pace = (min(interval, 86_400), now + min(seconds, 86_400))
            }
            if let interval = hints.policyInterval, interval > 0 {
                policyInterval = min(interval, 86_400)
            }
        }

        /// The server asked for no requests for `seconds` from `now`.
        mutating func hold(forSeconds seconds: Double, now: Double) {
            guard seconds > 0 else { return }
            heldUntil = max(heldUntil, now + min(seconds, 86_400))
        }
    }
}
