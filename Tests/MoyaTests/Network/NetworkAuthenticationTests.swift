import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import LoopbackServer
import Moya
import Testing

@Suite("HTTP authentication over the network")
struct NetworkAuthenticationTests {
    private static let user = "moya"
    private static let password = "s3cret"
    private static let realm = "tests@moya"

    private static func sha256(_ text: String) -> String {
        SHA256.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// A server that accepts Basic credentials on `/basic` and SHA-256 Digest on `/digest`,
    /// counting the attempts it sees.
    private func addProtectedRoutes(_ router: Router<BasicRequestContext>, attempts: Counter) {
        router.get("basic") { request, _ -> Response in
            attempts.increment()
            let expected = "Basic " + Data("\(Self.user):\(Self.password)".utf8).base64EncodedString()
            guard request.headers[.authorization] == expected else {
                return Response(status: .unauthorized, headers: [.wwwAuthenticate: "Basic realm=\"\(Self.realm)\""])
            }
            return Response(status: .ok, body: .init(byteBuffer: .init(string: "basic ok")))
        }
        router.get("digest") { request, _ -> Response in
            attempts.increment()
            let nonce = "fixed-nonce-1"
            let challenge = Response(
                status: .unauthorized,
                headers: [
                    .wwwAuthenticate:
                        "Digest realm=\"\(Self.realm)\", qop=\"auth\", algorithm=SHA-256, nonce=\"\(nonce)\""
                ]
            )
            guard let header = request.headers[.authorization], header.hasPrefix("Digest ") else { return challenge }
            func field(_ name: String) -> String? {
                guard let range = header.range(of: "\(name)=") else { return nil }
                let rest = header[range.upperBound...]
                if rest.hasPrefix("\"") {
                    return rest.dropFirst().split(separator: "\"", maxSplits: 1).first.map(String.init)
                }
                return rest.split(separator: ",").first.map { $0.trimmingCharacters(in: .whitespaces) }
            }
            guard let uri = field("uri"), let cnonce = field("cnonce"), let nc = field("nc"),
                let response = field("response")
            else {
                return challenge
            }
            let ha1 = Self.sha256("\(Self.user):\(Self.realm):\(Self.password)")
            let ha2 = Self.sha256("GET:\(uri)")
            guard response == Self.sha256("\(ha1):\(nonce):\(nc):\(cnonce):auth:\(ha2)") else { return challenge }
            return Response(status: .ok, body: .init(byteBuffer: .init(string: "digest ok")))
        }
    }

    private func provider(credential: URLCredential?) -> MoyaProvider<DynamicTarget> {
        MoyaProvider<DynamicTarget>(plugins: [CredentialsPlugin { _ in credential }])
    }

    @Test func credentialsPluginAnswersABasicChallenge() async throws {
        let attempts = Counter()
        try await TestServer.with({ addProtectedRoutes($0, attempts: attempts) }) { server in
            let credential = URLCredential(user: Self.user, password: Self.password, persistence: .none)
            let response = try await provider(credential: credential).request(
                DynamicTarget(baseURL: server.baseURL, path: "/basic")
            )
            #expect(response.statusCode == 200)
            #expect(try response.mapString() == "basic ok")
            #expect(attempts.count == 2)
        }
    }

    @Test func aStreamAnswersABasicChallengeWithTheCredentialsPluginsCredential() async throws {
        let attempts = Counter()
        try await TestServer.with({ addProtectedRoutes($0, attempts: attempts) }) { server in
            let credential = URLCredential(user: Self.user, password: Self.password, persistence: .none)
            let streamed = try await provider(credential: credential).stream(
                DynamicTarget(baseURL: server.baseURL, path: "/basic")
            )
            #expect(streamed.statusCode == 200)
            let body = try await streamed.chunks.collect(upTo: 1 << 10)
            #expect(String(decoding: body, as: UTF8.self) == "basic ok")
            #expect(attempts.count == 2)
        }
    }

    @Test func credentialsPluginAnswersADigestChallenge() async throws {
        let attempts = Counter()
        try await TestServer.with({ addProtectedRoutes($0, attempts: attempts) }) { server in
            let credential = URLCredential(user: Self.user, password: Self.password, persistence: .none)
            let response = try await provider(credential: credential).request(
                DynamicTarget(baseURL: server.baseURL, path: "/digest")
            )
            #expect(try response.mapString() == "digest ok")
            #expect(attempts.count == 2)
        }
    }

    @Test func wrongCredentialsAreTriedOnceThenTheChallengeIsReturned() async throws {
        let attempts = Counter()
        try await TestServer.with({ addProtectedRoutes($0, attempts: attempts) }) { server in
            let credential = URLCredential(user: Self.user, password: "wrong", persistence: .none)
            let response = try await provider(credential: credential).request(
                DynamicTarget(baseURL: server.baseURL, path: "/digest")
            )
            #expect(response.statusCode == 401)
            #expect(attempts.count == 2)
        }
    }

    @Test func challengeWithoutCredentialReturnsThe401Promptly() async throws {
        let attempts = Counter()
        try await TestServer.with({ addProtectedRoutes($0, attempts: attempts) }) { server in
            let response = try await provider(credential: nil).request(
                DynamicTarget(baseURL: server.baseURL, path: "/basic")
            )
            #expect(response.statusCode == 401)
            #expect(response.response?.value(forHTTPHeaderField: "WWW-Authenticate")?.hasPrefix("Basic") == true)
            #expect(attempts.count == 1)
        }
    }
}
