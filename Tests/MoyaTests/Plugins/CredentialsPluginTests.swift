import Foundation
import Testing

@testable import Moya

/// A plugin that reads, after the others, the credential attached to the request being sent.
private struct CredentialProbe: PluginType {
    let seen: Synchronized<[String?]>

    func willSend(_ request: RequestType, target: TargetType) {
        let user = (request as? MoyaRequest)?.credential?.user
        seen.update { $0.append(user) }
    }
}

@Suite("CredentialsPlugin")
struct CredentialsPluginTests {
    private let sent = URLRequest(url: URL(string: "https://api.example.test/private")!)

    @Test func theTargetsCredentialIsAttachedToTheRequest() {
        let plugin = CredentialsPlugin { _ in URLCredential(user: "ada", password: "lovelace", persistence: .none) }
        let request = StubRequest(sent)
        plugin.willSend(request, target: PipelineTarget.zen)
        #expect(request.attachedCredentials.map(\.user) == ["ada"])
        #expect(request.attachedCredentials.map(\.password) == ["lovelace"])
    }

    @Test func noCredentialMeansNothingIsAttached() {
        let plugin = CredentialsPlugin { _ in nil }
        let request = StubRequest(sent)
        plugin.willSend(request, target: PipelineTarget.zen)
        #expect(request.attachedCredentials.isEmpty)
    }

    @Test func theClosureChoosesByTarget() {
        let plugin = CredentialsPlugin { target in
            guard case .user(let name) = target as? PipelineTarget else { return nil }
            return URLCredential(user: name, password: "pw", persistence: .forSession)
        }
        let forUser = StubRequest(sent)
        plugin.willSend(forUser, target: PipelineTarget.user("grace"))
        let forZen = StubRequest(sent)
        plugin.willSend(forZen, target: PipelineTarget.zen)
        #expect(forUser.attachedCredentials.map(\.user) == ["grace"])
        #expect(forZen.attachedCredentials.isEmpty)
    }

    @Test func theCredentialReachesTheRequestTheProviderSends() async throws {
        let seen = Synchronized<[String?]>([])
        let provider = MoyaProvider<PipelineTarget>(
            stubClosure: MoyaProvider.immediatelyStub,
            plugins: [
                CredentialsPlugin { target in
                    guard case .user(let name) = target as? PipelineTarget else { return nil }
                    return URLCredential(user: name, password: "pw", persistence: .none)
                },
                CredentialProbe(seen: seen),
            ]
        )
        let queue = DispatchQueue(label: "credentials-tests")
        _ = try await provider.requestAndWait(.user("grace"), callbackQueue: queue).get()
        _ = try await provider.requestAndWait(.zen, callbackQueue: queue).get()
        #expect(seen.update { $0 } == ["grace", nil])
    }
}
