import Foundation

/// Limits the retries of a whole session to a share of its recent requests, so that when a
/// host degrades, every caller retrying on its own does not multiply the load on it.
///
/// Finagle's shape: over the last `window` seconds, retries may number at most
/// `percentCanRetry` of the requests sent plus `minimumRetriesPerSecond` for each second of the
/// window (so that a quiet client can still retry). A token bucket refilled at a fixed rate
/// (gRPC's retry throttling) would let a burst of failures spend a quiet hour's savings; a share
/// of recent traffic follows the load the host actually sees.
///
/// The budget is asked whenever a retrier (a `RetryPolicy`, an interceptor) decides to retry:
/// when it is spent, the request fails with its last real outcome, not an error of the
/// budget's, and the session's logger says once why it was not retried.
public struct RetryBudget: Sendable {
    /// The share of recent requests that may be retried (0.2: one retry per five requests).
    public var percentCanRetry: Double
    /// The retries allowed each second whatever the traffic.
    public var minimumRetriesPerSecond: Double
    /// How many seconds of requests and retries are counted.
    public var window: TimeInterval

    /// A budget; the defaults allow retries of 20 % of the last 10 seconds' requests, plus one
    /// a second.
    public init(percentCanRetry: Double = 0.2, minimumRetriesPerSecond: Double = 1, window: TimeInterval = 10) {
        self.percentCanRetry = min(max(percentCanRetry, 0), 10)
        self.minimumRetriesPerSecond = max(0, minimumRetriesPerSecond)
        self.window = max(1, window)
    }
}

extension RetryBudget {
    /// The budget's counts, apart from any clock or lock: one-second buckets over the window,
    /// so that memory stays fixed whatever the traffic.
    struct StateMachine {
        let settings: RetryBudget
        private var buckets: [(second: Int, requests: Int, retries: Int)]

        init(settings: RetryBudget) {
            self.settings = settings
            self.buckets = Array(
                repeating: (second: Int.min, requests: 0, retries: 0),
                count: Int(settings.window.rounded(.up))
            )
        }

        /// A request was sent for the first time at `now` (seconds).
        mutating func requestSent(now: Double) {
            let index = bucket(for: now)
            buckets[index].requests += 1
        }

        /// Whether a retry may be sent at `now`; when it may, it is counted.
        mutating func withdraw(now: Double) -> Bool {
            let index = bucket(for: now)
            let current = Int(now.rounded(.down))
            var requests = 0
            var retries = 0
            let oldest = current - buckets.count
            for bucket in buckets where bucket.second > oldest {
                requests += bucket.requests
                retries += bucket.retries
            }
            let allowed =
                settings.percentCanRetry * Double(requests) + settings.minimumRetriesPerSecond * settings.window
            guard Double(retries) + 1 <= allowed else { return false }
            buckets[index].retries += 1
            return true
        }

        /// The bucket of `now`'s second, emptied first if it last counted an older second.
        private mutating func bucket(for now: Double) -> Int {
            let second = Int(now.rounded(.down))
            let index = ((second % buckets.count) + buckets.count) % buckets.count
            if buckets[index].second != second {
                buckets[index] = (second: second, requests: 0, retries: 0)
            }
            return index
        }
    }
}
