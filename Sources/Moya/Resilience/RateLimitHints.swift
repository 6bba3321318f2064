import Foundation

/// How long a response asks its host's requests to hold off, read from what servers send:
///
/// - `Retry-After` on a `429` or a `503` (RFC 9110 10.2.3: seconds, or an HTTP date);
/// - `RateLimit: …, r=0, t=N` (the IETF httpapi draft's quota left, `r`, and seconds until it
///   resets, `t`), or its older form `RateLimit-Remaining: 0` with `RateLimit-Reset: N`;
/// - `X-RateLimit-Remaining: 0` with `X-RateLimit-Reset` (seconds, or a Unix time, as GitHub
///   sends it).
///
/// A quota not spent yet asks nothing: the bucket's own rate keeps requests under it.
enum RateLimitHints {
    /// Seconds to hold the host's requests after `response`, if it asks for a pause.
    static func pause(after response: Response, now: Date = Date()) -> TimeInterval? {
        if response.statusCode == 429 || response.statusCode == 503,
            let delay = RetryAfter.delay(in: response, now: now)
        {
            return delay
        }
        if let field = response.headerValues(named: "RateLimit").first, let pause = structuredPause(field) {
            return pause
        }
        for (remaining, reset) in [
            ("RateLimit-Remaining", "RateLimit-Reset"), ("X-RateLimit-Remaining", "X-RateLimit-Reset"),
        ] {
            guard let left = response.headerValues(named: remaining).first.flatMap({ Int($0.trimmed) }), left <= 0,
                let resetValue = response.headerValues(named: reset).first.flatMap({ Double($0.trimmed) })
            else { continue }
            return seconds(untilReset: resetValue, now: now)
        }
        return nil
    }

    /// `r=0` and `t=N` in the draft's structured field (`"default";r=0;t=30`, or the older
    /// `limit=…, remaining=0, reset=30`).
    static func structuredPause(_ field: String) -> TimeInterval? {
        var remaining: Int?
        var reset: Double?
        for part in field.split(whereSeparator: { $0 == ";" || $0 == "," }) {
            let pair = part.split(separator: "=", maxSplits: 1).map { String($0).trimmed.lowercased() }
            guard pair.count == 2 else { continue }
            switch pair[0] {
            case "r", "remaining": remaining = Int(pair[1])
            case "t", "reset": reset = Double(pair[1])
            default: continue
            }
        }
        guard let remaining, remaining <= 0, let reset, reset >= 0 else { return nil }
        return reset
    }

    /// A reset given as seconds from now, or, when larger than a year of seconds, as a Unix time.
    private static func seconds(untilReset value: Double, now: Date) -> TimeInterval? {
        guard value.isFinite, value >= 0 else { return nil }
        if value > 365 * 86_400 {
            return max(0, value - now.timeIntervalSince1970)
        }
        return value
    }
}

extension String {
    fileprivate var trimmed: String { trimmingCharacters(in: .whitespaces) }
}
