import Foundation

/// What to do with a request, given what the cache holds for it (RFC 9111 4): serve the stored
/// response, validate it, fetch anew, or answer `504` for `only-if-cached`. Pure, with `now`
/// given.
enum CacheDecision: Equatable {
    /// Serve the stored response, whose age is `age`.
    case serve(CachedResponse, age: TimeInterval)
    /// Ask the server with the stored response's validators; `stored` answers a `304`.
    case validate(CachedResponse)
    /// Send the request as it is; `stored`, if any, can only be served if the network fails.
    case fetch(stored: CachedResponse?)
    /// `only-if-cached`, and nothing stored can be served.
    case unsatisfiable

    /// The decision for a request with `requestControl` directives when the cache holds
    /// `stored` (already matched to the request's variant).
    static func decide(
        requestControl: CacheControl,
        policy: CachePolicy,
        stored: CachedResponse?,
        now: Date
    ) -> CacheDecision {
        guard let stored else {
            return requestControl.onlyIfCached ? .unsatisfiable : .fetch(stored: nil)
        }
        let freshness = CacheFreshness(of: stored, now: now)
        if isServable(stored, freshness: freshness, requestControl: requestControl, policy: policy) {
            return .serve(stored, age: freshness.age)
        }
        if requestControl.onlyIfCached {
            return .unsatisfiable
        }
        return stored.hasValidator ? .validate(stored) : .fetch(stored: stored)
    }

    /// Whether the stored response may be served without contacting the server (4.2, 5.2.1).
    private static func isServable(
        _ stored: CachedResponse,
        freshness: CacheFreshness,
        requestControl: CacheControl,
        policy: CachePolicy
    ) -> Bool {
        let responseControl = stored.cacheControl
        if responseControl.noCache || requestControl.noCache || policy == .alwaysRevalidate {
            return false
        }
        if let maxAge = requestControl.maxAge, freshness.age > TimeInterval(maxAge) {
            return false
        }
        if let minFresh = requestControl.minFresh, freshness.remaining < TimeInterval(minFresh) {
            return false
        }
        if freshness.isFresh {
            return true
        }
        // A stale response only with the client's leave (max-stale), and never when the
        // server said it must be revalidated (5.2.2.2).
        guard !responseControl.mustRevalidate, let maxStale = requestControl.maxStale else { return false }
        return maxStale == Int.max || freshness.staleness <= TimeInterval(maxStale)
    }

    /// Whether a stale `stored` response may be served because the network failed, by the
    /// policy or by the response's own `stale-if-error` (RFC 5861); its age when it may.
    static func staleIfError(_ stored: CachedResponse, policy: CachePolicy, now: Date) -> TimeInterval? {
        let control = stored.cacheControl
        // RFC 9111 4.2.4: never against no-cache or must-revalidate.
        guard !control.noCache, !control.mustRevalidate else { return nil }
        let freshness = CacheFreshness(of: stored, now: now)
        let allowed: TimeInterval
        if case .staleIfError(let maxStale) = policy {
            allowed = maxStale ?? .infinity
        } else if let seconds = control.staleIfError {
            allowed = TimeInterval(seconds)
        } else {
            return nil
        }
        return freshness.staleness <= allowed ? freshness.age : nil
    }

    /// Status codes that count as a failure of the server for `stale-if-error` (RFC 5861 4).
    static let serverErrors: Set<Int> = [500, 502, 503, 504]

    /// The `Cache-Control` of a request; `Pragma: no-cache` counts as `no-cache` when the
    /// request has no `Cache-Control` (RFC 9111 5.4).
    static func requestControl(of request: URLRequest) -> CacheControl {
        if let value = request.value(forHTTPHeaderField: "Cache-Control") {
            return CacheControl(value)
        }
        var control = CacheControl()
        if let pragma = request.value(forHTTPHeaderField: "Pragma"),
            pragma.lowercased().split(separator: ",").contains(where: {
                $0.trimmingCharacters(in: .whitespaces) == "no-cache"
            })
        {
            control.noCache = true
        }
        return control
    }
}
