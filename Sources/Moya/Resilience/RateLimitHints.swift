import Foundation

/// What a response asks of its host's next requests, read from what servers send:
///
/// - a pause: `Retry-After` on a `429` or a `503` (RFC 9110 10.2.3: seconds, or an HTTP date);
///   `RateLimit: …, r=0, t=N` (the IETF httpapi draft's quota left, `r`, and seconds until it
///   resets, `t`), or its older form `RateLimit-Remaining: 0` with `RateLimit-Reset: N`;
///   `X-RateLimit-Remaining: 0` with `X-RateLimit-Reset` (seconds, or a Unix time, as GitHub
///   sends it);
/// - a pace, so that the quota is not spent before it resets: the same fields with requests
///   left space the host's requests `t / r` seconds apart until the reset;
/// - a policy: `RateLimit-Policy: "default";q=100;w=60` (the draft's quota of `q` requests per
///   `w` seconds; the older `100;w=60` too) spaces requests `w / q` apart for as long as the
///   host is in use. Of several policies, the strictest.
enum RateLimitHints {
    /// What one response asks.
    struct Hints: Equatable {
        /// Seconds to hold the host's requests.
        var pause: TimeInterval?
        /// Seconds between requests, and for how long, until the quota resets.
        var pace: (interval: TimeInterval, seconds: TimeInterval)?
        /// Seconds between requests that the server's stated policy asks for.
        var policyInterval: TimeInterval?

        static func == (lhs: Hints, rhs: Hints) -> Bool {
            lhs.pause == rhs.pause && lhs.pace?.interval == rhs.pace?.interval
                && lhs.pace?.seconds == rhs.pace?.seconds && lhs.policyInterval == rhs.policyInterval
        }
    }

    /// Seconds to hold the host's requests after `response`, if it asks for a pause.
    static func pause(after response: Response, now: Date = Date()) -> TimeInterval? {
        hints(after: response, now: now).pause
    }

    /// Everything `response` asks of the host's next requests.
    static func hints(after response: Response, now: Date = Date()) -> Hints {
        var hints = Hints()
        guard mayAsk(response) else { return hints }
        // A list of policies, in one field or several: each holds on its own, so the one
        // asking for the widest spacing keeps every quota.
        hints.policyInterval = response.headerValues(named: "RateLimit-Policy")
            .flatMap { $0.split(separator: ",") }
            .compactMap { policyInterval(String($0)) }
            .max()
        if response.statusCode == 429 || response.statusCode == 503,
            let delay = RetryAfter.delay(in: response, now: now)
        {
            hints.pause = delay
            return hints
        }
        if let field = response.headerValues(named: "RateLimit").first, let quota = structuredQuota(field) {
            hints.apply(quota)
            return hints
        }
        for (remaining, reset) in [
            ("RateLimit-Remaining", "RateLimit-Reset"), ("X-RateLimit-Remaining", "X-RateLimit-Reset"),
        ] {
            guard let left = response.headerValues(named: remaining).first.flatMap({ Int($0.trimmed) }),
                let resetValue = response.headerValues(named: reset).first.flatMap({ Double($0.trimmed) }),
                let seconds = seconds(untilReset: resetValue, now: now)
            else { continue }
            hints.apply((left, seconds))
            return hints
        }
        return hints
    }

    /// Whether `response` may ask anything: a `429` or a `503`, or a field whose name starts
    /// with `RateLimit` or `X-RateLimit`. Most responses carry none, and one pass over their
    /// fields costs less than looking up each name these hints read.
    static func mayAsk(_ response: Response) -> Bool {
        if response.statusCode == 429 || response.statusCode == 503 {
            return true
        }
        var found = false
        response.forEachHeaderField { name, _ in
            found = found || isRateLimitField(name)
        }
        return found
    }

    /// Whether `name` starts with `RateLimit` or `X-RateLimit`, in any case.
    static func isRateLimitField(_ name: String) -> Bool {
        // The first byte tells most fields apart (setting its 0x20 bit lower-cases a letter):
        // only the few starting with an R or an X are compared whole.
        switch name.utf8.first.map({ $0 | 0x20 }) {
        case UInt8(ascii: "r"): name.lowercased().hasPrefix("ratelimit")
        case UInt8(ascii: "x"): name.lowercased().hasPrefix("x-ratelimit")
        default: false
        }
    }

    /// `w / q` for one policy of a `RateLimit-Policy` field (`"default";q=100;w=60`, or the
    /// older `100;w=60`); `nil` without both.
    static func policyInterval(_ field: String) -> TimeInterval? {
        var quota: Double?
        var window: Double?
        for (index, part) in field.split(separator: ";").enumerated() {
            let pair = part.split(separator: "=", maxSplits: 1).map { String($0).trimmed.lowercased() }
            if pair.count == 1, index == 0 {
                quota = Double(pair[0])
            } else if pair.count == 2 {
                switch pair[0] {
                case "q": quota = Double(pair[1])
                case "w": window = Double(pair[1])
                default: continue
                }
            }
        }
        guard let quota, quota >= 1, quota.isFinite, let window, window > 0, window.isFinite else { return nil }
        return window / quota
    }

    /// `r` and `t` in the draft's structured field (`"default";r=0;t=30`, or the older
    /// `limit=…, remaining=0, reset=30`).
    static func structuredQuota(_ field: String) -> (remaining: Int, reset: TimeInterval)? {
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
        guard let remaining, let reset, reset >= 0, reset.isFinite else { return nil }
        return (remaining, reset)
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

extension RateLimitHints.Hints {
    /// A quota with `remaining` requests for the `reset` seconds until it renews: spent, a
    /// pause until then; not, the requests spread over them.
    fileprivate mutating func apply(_ quota: (remaining: Int, reset: TimeInterval)) {
        if quota.remaining <= 0 {
            pause = quota.reset > 0 ? quota.reset : nil
        } else if quota.reset > 0 {
            pace = (quota.reset / Double(quota.remaining), quota.reset)
        }
    }
}

extension String {
    fileprivate var trimmed: String { trimmingCharacters(in: .whitespaces) }
}
