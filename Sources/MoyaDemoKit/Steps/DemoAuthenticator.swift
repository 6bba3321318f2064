import Foundation
import Moya
import NIOConcurrencyHelpers

/// An OAuth-style token pair, as an `AuthenticationInterceptor` keeps it.
struct OAuthToken: AuthenticationCredential {
    let accessToken: String
    let refreshToken: String
    /// When the client believes the token expires; the server may disagree (a revoked token,
    /// a skewed clock), which is what a `401` then says.
    let expiration: Date

    var requiresRefresh: Bool { expiration < Date().addingTimeInterval(60) }
}

/// Applies a bearer token and refreshes it at the embedded server, counting the refreshes.
struct DemoAuthenticator: Authenticator {
    let context: DemoContext
    private let refreshes = NIOLockedValueBox(0)

    init(context: DemoContext) {
        self.context = context
    }

    /// How many times the token was refreshed.
    var refreshCount: Int { refreshes.withLockedValue { $0 } }

    func apply(_ token: OAuthToken, to request: inout URLRequest) {
        request.setValue("Bearer \(token.accessToken)", forHTTPHeaderField: "Authorization")
    }

    func refresh(_ token: OAuthToken) async throws -> OAuthToken {
        let count = refreshes.withLockedValue { count in
            count += 1
            return count
        }
        context.say("401: refreshing the token (refresh #\(count))")
        let pair = try await MoyaProvider<GitHub>().request(.refreshToken(token.refreshToken), as: TokenPair.self)
        return OAuthToken(
            accessToken: pair.accessToken,
            refreshToken: pair.refreshToken,
            expiration: Date().addingTimeInterval(TimeInterval(pair.expiresIn))
        )
    }

    func isRequest(_ request: URLRequest, authenticatedWith token: OAuthToken) -> Bool {
        request.value(forHTTPHeaderField: "Authorization") == "Bearer \(token.accessToken)"
    }
}
