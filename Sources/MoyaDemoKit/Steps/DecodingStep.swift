import Foundation
import Moya

extension DemoSteps {
    /// Decoding JSON responses into `Decodable` types.
    static let decoding = DemoStep(
        name: "decoding",
        title: "Decoding a user and their repositories",
        explanation: """
            A Response maps its JSON into any Decodable type; with async/await, \
            request(_:as:) sends and decodes in one call and throws a MoyaError either way.
            """,
        code: """
            let user = try await provider.request(.userProfile("ashfurrow"),
                                                  as: User.self)
            let repos = try await provider.request(.userRepositories("moya"))
                .map([Repository].self)
            """
    ) { context in
        let provider = MoyaProvider<GitHub>()
        let user = try await provider.request(.userProfile("ashfurrow"), as: User.self)
        context.say("User(login: \"\(user.login)\", id: \(user.id))")
        let repositories = try await provider.request(.userRepositories("moya")).map([Repository].self)
        context.say("\(repositories.count) repositories: \(repositories.map(\.name).joined(separator: ", "))")
    }
}
