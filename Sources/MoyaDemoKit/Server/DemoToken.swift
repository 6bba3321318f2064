import Foundation

/// The embedded server's access tokens: `demo.<expiry in seconds since 1970>`.
///
/// Readable on purpose: the demo starts with a token that expired a minute ago and shows the
/// refresh it causes, without the server keeping any state.
enum DemoToken {
    /// The refresh token the server accepts.
    static let refreshToken = "demo-refresh-token"

    /// A token that expires `interval` seconds from `now` (in the past when negative).
    static func issue(validFor interval: TimeInterval, now: Date = Date()) -> String {
        "demo.\(Int(now.addingTimeInterval(interval).timeIntervalSince1970))"
    }

    /// Whether `token` is one of the server's and has not expired.
    static func isValid(_ token: String, now: Date = Date()) -> Bool {
        guard token.hasPrefix("demo."), let expiry = TimeInterval(token.dropFirst("demo.".count)) else {
            return false
        }
        return expiry > now.timeIntervalSince1970
    }
}

/// The token pair `POST /login/oauth/access_token` answers with.
struct TokenPair: Codable, Sendable {
    let accessToken: String
    let refreshToken: String
    let expiresIn: Int

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case refreshToken = "refresh_token"
        case expiresIn = "expires_in"
    }
}
