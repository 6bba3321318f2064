import Foundation

/// Reads a `Retry-After` header (RFC 9110, section 10.2.3): a number of seconds, or an HTTP
/// date.
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
        for format in formats {
            if let date = formatter(format).date(from: trimmed) {
                return max(0, date.timeIntervalSince(now))
            }
        }
        return nil
    }

    /// IMF-fixdate, then the obsolete RFC 850 and asctime forms that recipients must accept.
    private static let formats = [
        "EEE, dd MMM yyyy HH:mm:ss zzz",
        "EEEE, dd-MMM-yy HH:mm:ss zzz",
        "EEE MMM d HH:mm:ss yyyy",
    ]

    private static func formatter(_ format: String) -> DateFormatter {
        // A new formatter per parse: DateFormatter is not safe to share between threads, and
        // Retry-After headers are rare.
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = format
        return formatter
    }
}
