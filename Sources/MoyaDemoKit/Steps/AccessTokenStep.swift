import Foundation
import Moya

extension DemoSteps {
    /// `AccessTokenPlugin` on a protected endpoint.
    static let accessToken = DemoStep(
        name: "access-token",
        title: "The access token plugin",
        explanation: """
            A target adopting AccessTokenAuthorizable names its authorization type per case; \
            AccessTokenPlugin then adds "Authorization: Bearer <token>" to those requests only.
            """,
        code: """
            var authorizationType: AuthorizationType? {
                switch self { case .me: return .bearer; default: return nil }
            }
            let plugin = AccessTokenPlugin { _ in token }
            let provider = MoyaProvider<GitHub>(plugins: [plugin])
            let me = try await provider.request(.me, as: User.self)
            """,
        needsEmbeddedServer: true
    ) { context in
        do {
            _ = try await MoyaProvider<GitHub>().request(.me)
            throw DemoStepError("The protected endpoint answered a request without a token.")
        } catch let error as MoyaError {
            context.say("without the plugin: \(error.response?.statusCode ?? 0) Unauthorized")
        }
        let provider = MoyaProvider<GitHub>(plugins: [AccessTokenPlugin { _ in DemoConfiguration.accessToken }])
        let me = try await provider.request(.me, as: User.self)
        context.say("with the plugin:    200, login \"\(me.login)\"")
    }
}
