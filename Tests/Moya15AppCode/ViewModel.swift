// swift-format-ignore-file
// Moya 15 app code, kept exactly as apps write it: not formatted.
import Foundation
import Moya

/// A main-actor view model whose completions update its own state.
@MainActor
final class ProfileViewModel {
    let provider: MoyaProvider<GitHub>
    var login: String?
    var repositories: [String] = []
    var error: MoyaError?
    var target: GitHub = .zen

    init(provider: MoyaProvider<GitHub>) {
        self.provider = provider
    }

    func load(_ name: String) {
        provider.request(.userProfile(name)) { [weak self] result in
            switch result {
            case .success(let response):
                self?.login = (try? response.map(User.self))?.login
            case .failure(let error):
                self?.error = error
            }
        }
    }

    func loadRepositories(_ name: String) async {
        do {
            let response = try await provider.request(.userRepositories(name))
            repositories = try response.map([Repository].self).map(\.name)
        } catch {
            self.error = error as? MoyaError
        }
    }

    /// Passes a target it keeps in a property, from the main actor, to the async API.
    func reloadCurrent() async -> Int? {
        try? await provider.request(target).statusCode
    }
}
