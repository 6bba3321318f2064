import Foundation

/// The age and freshness of a stored response, as RFC 9111 4.2 computes them. Pure: `now` is
/// always given, so every rule can be tested with any clock.
struct CacheFreshness: Sendable, Equatable {
    /// `current_age` (4.2.3), in seconds.
    var age: TimeInterval
    /// `freshness_lifetime` (4.2.1), in seconds.
    var lifetime: TimeInterval
    /// Whether the lifetime is a heuristic one (4.2.2).
    var isHeuristic: Bool

    /// How long the response stays fresh from now; negative once it is stale.
    var remaining: TimeInterval { lifetime - age }

    /// How long ago the response became stale; `0` while it is fresh.
    var staleness: TimeInterval { max(0, age - lifetime) }

    var isFresh: Bool { lifetime > age }

    /// The longest heuristic lifetime given: a tenth of the time since `Last-Modified`, as
    /// RFC 9111 4.2.2 suggests, is capped at a day, so that a years-old file is still
    /// revalidated daily.
    static let heuristicLimit: TimeInterval = 86_400

    /// Status codes whose responses are heuristically cacheable (RFC 9110 15.1).
    static let heuristicallyCacheable: Set<Int> = [200, 203, 204, 206, 300, 301, 308, 404, 405, 410, 414, 501]

    init(age: TimeInterval, lifetime: TimeInterval, isHeuristic: Bool) {
        self.age = age
        self.lifetime = lifetime
        self.isHeuristic = isHeuristic
    }

    /// The freshness of `response` at `now`.
    init(of response: CachedResponse, now: Date) {
        let parsed = response.parsed
        let control = parsed.cacheControl
        let date = parsed.date
        age = Self.age(of: response, now: now)
        if let maxAge = control.maxAge {
            // A private cache ignores s-maxage (5.2.2.10).
            lifetime = TimeInterval(maxAge)
            isHeuristic = false
        } else if parsed.hasExpires {
            // An invalid Expires, such as "0", means already expired (5.3).
            lifetime = parsed.expires.map { max(0, $0.timeIntervalSince(date ?? response.responseTime)) } ?? 0
            isHeuristic = false
        } else {
            lifetime = Self.heuristicLifetime(response, control: control, date: date)
            isHeuristic = true
        }
    }

    /// `current_age` alone, without the lifetime (what serving a revalidated response needs):
    /// the age the response had when it arrived, corrected for the time the request took, plus
    /// the time it has spent in the cache.
    static func age(of response: CachedResponse, now: Date) -> TimeInterval {
        let ageValue = response.parsed.age.map(TimeInterval.init) ?? 0
        // Without a Date the response is taken as generated when it arrived (RFC 9110 6.6.1).
        let dateValue = response.parsed.date ?? response.responseTime
        let apparentAge = max(0, response.responseTime.timeIntervalSince(dateValue))
        let responseDelay = max(0, response.responseTime.timeIntervalSince(response.requestTime))
        let correctedAgeValue = ageValue + responseDelay
        let correctedInitialAge = max(apparentAge, correctedAgeValue)
        let residentTime = max(0, now.timeIntervalSince(response.responseTime))
        return correctedInitialAge + residentTime
    }

    /// RFC 9111 4.2.2: only for a response without explicit expiration whose status code is
    /// heuristically cacheable or that is marked `public`; a tenth of the time since its
    /// `Last-Modified`, and none without one.
    private static func heuristicLifetime(
        _ response: CachedResponse,
        control: CacheControl,
        date: Date?
    ) -> TimeInterval {
        guard heuristicallyCacheable.contains(response.statusCode) || control.isPublic,
            let lastModified = response.parsed.lastModified
        else { return 0 }
        let since = (date ?? response.responseTime).timeIntervalSince(lastModified)
        return min(heuristicLimit, max(0, since / 10))
    }
}
