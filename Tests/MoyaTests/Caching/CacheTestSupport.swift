import Foundation

@testable import Moya

/// Stored responses built by hand, for the pure cache rules.
enum CacheFixture {
    static let now = Date(timeIntervalSince1970: 1_700_000_000)

    static func date(_ offset: TimeInterval) -> String {
        httpDate(now.addingTimeInterval(offset))
    }

    /// An IMF-fixdate, as a server sends it.
    static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }

    /// A `200` received at `now + receivedAt`, whose request left `delay` seconds earlier.
    static func response(
        _ headers: [(String, String)],
        status: Int = 200,
        receivedAt: TimeInterval = 0,
        delay: TimeInterval = 0,
        body: String = "body"
    ) -> CachedResponse {
        CachedResponse(
            statusCode: status,
            headers: CachedHeaders(headers.map { CachedHeaders.Field(name: $0.0, value: $0.1) }),
            body: Data(body.utf8),
            requestTime: now.addingTimeInterval(receivedAt - delay),
            responseTime: now.addingTimeInterval(receivedAt),
            variant: RequestVariant(salt: [], entries: []),
            finalURL: nil
        )
    }
}
