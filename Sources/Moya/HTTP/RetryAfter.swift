import Foundation

/// Reads a `Retry-After` header (RFC 9110, section 10.2.3): a number of seconds, or an HTTP
/// date, read by the one HTTP-date parser the cache uses too (`HTTPDate`).
enum RetryAfter {
    /// The seconds to wait from `now`, or `nil` when the header is missing or unreadable. A
    /// date in the past means no wait.
    static func delay(in response: Response, now: Date = Date()) -> TimeInterval? {
        guard let value = response.response?.value(forHTTPHeaderField: "Retry-After") else {
            return nil
        }
        return delay(parsing: value, now: now)
    }

    static func delay(parsing value: String, now: Date = Date()) -> TimeInterval? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if let seconds = UInt32(trimmed) {
            return TimeInterval(seconds)
        }
        return HTTPDate.parse(trimmed).map { max(0, $0.timeIntervalSince(now)) }
    }
}
