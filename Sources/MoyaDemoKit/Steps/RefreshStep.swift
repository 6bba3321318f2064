import Foundation
import Moya

extension DemoSteps {
    /// `AuthenticationInterceptor` refreshing an expired token once for concurrent requests.
    static let refresh = DemoStep(
        name: "refresh",
        title: "Token refresh",
        explanation: """
            AuthenticationInterceptor applies a credential to every attempt. On a 401 it \
            refreshes the credential once for all the requests that failed meanwhile, then \
            replays them. Here the server says the token expired.
            """,
        code: """
            let auth = AuthenticationInterceptor(authenticator: DemoAuthenticator(),
                                                 credential: expiredToken)
            let provider = MoyaProvider<GitHub>(interceptor: auth)
            async let a = provider.request(.starred)   // and b, c: three at once
            """,
        needsEmbeddedServer: true
    ) { context in
        let expired = OAuthToken(
            accessToken: DemoToken.issue(validFor: -60),
            refreshToken: DemoToken.refreshToken,
            expiration: Date().addingTimeInterval(3600)
        )
        let authenticator = DemoAuthenticator(context: context)
        let provider = MoyaProvider<GitHub>(
            interceptor: AuthenticationInterceptor(authenticator: authenticator, credential: expired)
        )
        async let first = provider.request(.starred, as: Starred.self)
        async let second = provider.request(.starred, as: Starred.self)
        async let third = provider.request(.starred, as: Starred.self)
        let answers = try await [first, second, third]
        guard authenticator.refreshCount == 1 else {
            throw DemoStepError("The token was refreshed \(authenticator.refreshCount) times, not once.")
        }
        context.say(
            "\(answers.count) requests answered 200 after 1 refresh: \(answers[0].repositories.joined(separator: ", "))"
        )
    }
}
