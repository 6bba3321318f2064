import Foundation
import Moya

/// The demo's steps, each a titled walk through one Moya feature.
struct DemoSteps {
    typealias Step = (title: String, run: @Sendable () async throws -> Void)

    let steps: [Step] = [
        ("A target, a provider, a request (callback API on the main queue)", zen),
        ("Decoding JSON into a Decodable type", userProfile),
        ("Query parameters with URLEncoding", repositories),
        ("The logger plugin, with the Authorization header redacted", logger),
        ("The access token plugin against a protected endpoint", accessToken),
        ("Stubbing: sample data, no network", stubbing),
    ]

    var count: Int { steps.count }

    /// Runs every step and returns how many failed.
    func runAll() async -> Int {
        var failures = 0
        for (index, step) in steps.enumerated() {
            print("== \(index + 1). \(step.title)")
            do {
                try await step.run()
            } catch {
                failures += 1
                print("   FAILED: \(error)")
            }
            print("")
        }
        return failures
    }
}

@Sendable private func zen() async throws {
    let provider = MoyaProvider<GitHub>()
    let result: Result<Response, MoyaError> = await withCheckedContinuation { continuation in
        provider.request(.zen) { result in
            continuation.resume(returning: result)
        }
    }
    let response = try result.get()
    print("   \(response.statusCode): \(try response.mapString())")
}

@Sendable private func userProfile() async throws {
    let provider = MoyaProvider<GitHub>()
    let user = try await provider.request(.userProfile("ashfurrow")).map(User.self)
    print("   login=\(user.login) id=\(user.id)")
}

@Sendable private func repositories() async throws {
    let provider = MoyaProvider<GitHub>()
    let response = try await provider.request(.userRepositories("moya"))
    let repositories = try response.map([Repository].self)
    print("   \(response.request?.url?.absoluteString ?? "")")
    print("   repositories: \(repositories.map(\.name).joined(separator: ", "))")
}

@Sendable private func logger() async throws {
    let logger = NetworkLoggerPlugin(configuration: .init(
        output: { _, items in items.forEach { print("   \($0)") } },
        logOptions: .verbose
    ))
    let token = AccessTokenPlugin { _ in DemoConfiguration.accessToken }
    let provider = MoyaProvider<GitHub>(plugins: [token, logger])
    _ = try await provider.request(.me)
}

@Sendable private func accessToken() async throws {
    let anonymous = MoyaProvider<GitHub>()
    do {
        _ = try await anonymous.request(.me)
        print("   unexpected: the protected endpoint answered without a token")
    } catch {
        print("   without a token: \(error.response?.statusCode ?? 0)")
    }
    let provider = MoyaProvider<GitHub>(plugins: [AccessTokenPlugin { _ in DemoConfiguration.accessToken }])
    let me = try await provider.request(.me).map(User.self)
    print("   with a token: login=\(me.login)")
}

@Sendable private func stubbing() async throws {
    let provider = MoyaProvider<GitHub>(stubClosure: MoyaProvider.immediatelyStub)
    let response = try await provider.request(.zen)
    print("   stubbed: \(try response.mapString())")
}
