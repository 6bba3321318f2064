import Foundation
import Moya
import Testing

private struct AuthTarget: TargetType, AccessTokenAuthorizable {
    var authorizationType: AuthorizationType?
    var name = "me"

    var baseURL: URL { URL(string: "https://api.example.test")! }
    var path: String { "/\(name)" }
    var method: Moya.Method { .get }
    var task: Moya.Task { .requestPlain }
    var headers: [String: String]? { nil }
}

@Suite("AccessTokenPlugin")
struct AccessTokenPluginTests {
    private let request = URLRequest(url: URL(string: "https://api.example.test/me")!)

    private func authorization(_ target: TargetType, token: String = "t0ken") -> String? {
        AccessTokenPlugin { _ in token }.prepare(request, target: target).value(forHTTPHeaderField: "Authorization")
    }

    @Test func bearerTargetsGetABearerToken() {
        #expect(authorization(AuthTarget(authorizationType: .bearer)) == "Bearer t0ken")
    }

    @Test func basicTargetsGetABasicToken() {
        #expect(authorization(AuthTarget(authorizationType: .basic), token: "dXNlcjpwYXNz") == "Basic dXNlcjpwYXNz")
    }

    @Test func customTargetsGetTheirOwnScheme() {
        #expect(authorization(AuthTarget(authorizationType: .custom("Token"))) == "Token t0ken")
    }

    @Test func targetsWithoutAuthorizationTypeGetNoHeader() {
        #expect(authorization(AuthTarget(authorizationType: nil)) == nil)
        #expect(authorization(AuthTarget(authorizationType: .none)) == nil)
    }

    @Test func targetsThatAreNotAuthorizableGetNoHeader() {
        #expect(authorization(PipelineTarget.zen) == nil)
    }

    @Test func theRestOfTheRequestIsUntouched() {
        var original = request
        original.setValue("application/json", forHTTPHeaderField: "Accept")
        original.httpBody = Data("body".utf8)
        let prepared = AccessTokenPlugin { _ in "t" }.prepare(original, target: AuthTarget(authorizationType: .bearer))
        #expect(prepared.url == original.url)
        #expect(prepared.httpBody == Data("body".utf8))
        #expect(prepared.value(forHTTPHeaderField: "Accept") == "application/json")
    }

    @Test func theTokenClosureReceivesTheTarget() {
        let plugin = AccessTokenPlugin { target in (target as? AuthTarget)?.name ?? "unknown" }
        let prepared = plugin.prepare(request, target: AuthTarget(authorizationType: .bearer, name: "alice"))
        #expect(prepared.value(forHTTPHeaderField: "Authorization") == "Bearer alice")
    }

    @Test func theTokenIsAskedForOnEveryRequest() {
        let counter = Counter()
        let plugin = AccessTokenPlugin { _ in "token-\(counter.increment())" }
        let target = AuthTarget(authorizationType: .bearer)
        #expect(plugin.prepare(request, target: target).value(forHTTPHeaderField: "Authorization") == "Bearer token-1")
        #expect(plugin.prepare(request, target: target).value(forHTTPHeaderField: "Authorization") == "Bearer token-2")
    }

    @Test func theOlderClosureWithoutArgumentWorks() {
        let plugin = AccessTokenPlugin { "legacy" }
        #expect(
            plugin.prepare(request, target: AuthTarget(authorizationType: .bearer)).value(
                forHTTPHeaderField: "Authorization"
            ) == "Bearer legacy"
        )
    }

    @Test func aMultiTargetForwardsTheAuthorizationType() {
        #expect(MultiTarget(AuthTarget(authorizationType: .custom("JWT"))).authorizationType == .custom("JWT"))
        #expect(MultiTarget(AuthTarget(authorizationType: nil)).authorizationType == nil)
        #expect(MultiTarget(PipelineTarget.zen).authorizationType == nil)
        #expect(authorization(MultiTarget(AuthTarget(authorizationType: .bearer))) == "Bearer t0ken")
        #expect(authorization(MultiTarget(AuthTarget(authorizationType: nil))) == nil)
        #expect(authorization(MultiTarget(PipelineTarget.zen)) == nil)
    }

    @Test func theTokenClosureReceivesTheTargetInsideAMultiTarget() {
        let plugin = AccessTokenPlugin { target in (target as? AuthTarget)?.name ?? "wrapped" }
        let prepared = plugin.prepare(request, target: MultiTarget(AuthTarget(authorizationType: .bearer, name: "bob")))
        #expect(prepared.value(forHTTPHeaderField: "Authorization") == "Bearer bob")
    }

    @Test func theHeaderReachesTheRequestAProviderSends() async throws {
        let provider = MoyaProvider<MultiTarget>(
            stubClosure: MoyaProvider.immediatelyStub,
            plugins: [AccessTokenPlugin { _ in "from-provider" }]
        )
        let queue = DispatchQueue(label: "access-token-tests")
        let authorized = try await provider.requestAndWait(
            MultiTarget(AuthTarget(authorizationType: .bearer)),
            callbackQueue: queue
        ).get()
        #expect(authorized.request?.value(forHTTPHeaderField: "Authorization") == "Bearer from-provider")
        let anonymous = try await provider.requestAndWait(MultiTarget(PipelineTarget.zen), callbackQueue: queue).get()
        #expect(anonymous.request?.value(forHTTPHeaderField: "Authorization") == nil)
    }

    @Test func authorizationTypeValuesAreTheSchemes() {
        #expect(AuthorizationType.basic.value == "Basic")
        #expect(AuthorizationType.bearer.value == "Bearer")
        #expect(AuthorizationType.custom("Digest").value == "Digest")
    }
}
