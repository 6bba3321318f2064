import Foundation
import HTTPTypes
import Hummingbird
import LoopbackServer
import NIOCore
import Testing

@testable import Moya

/// Redirects and authentication challenges, the same through every transport: credentials
/// never follow a request to another origin, and a `401` reaches the lifecycle, which answers
/// it.
@Suite("Transport contract: redirects and challenges")
struct TransportContractRedirectTests {
    /// `/authorization` echoes the request's `Authorization` header, or `none`.
    private func addEcho(_ router: Router<BasicRequestContext>) {
        router.get("authorization") { request, _ in
            Hummingbird.Response(
                status: .ok,
                body: .init(byteBuffer: ByteBuffer(string: request.headers[.authorization] ?? "none"))
            )
        }
    }

    @Test(arguments: TransportUnderTest.allCases)
    func aRedirectToTheSameOriginKeepsAuthorizationAndReportsTheFinalURL(
        _ transport: TransportUnderTest
    ) async throws {
        try await TestServer.with({ router in
            addEcho(router)
            router.get("moved") { _, _ in Hummingbird.Response(status: .found, headers: [.location: "/authorization"]) }
        }) { server in
            let target = DynamicTarget(baseURL: server.baseURL, path: "/moved", headers: ["Authorization": "Bearer t"])
            let response = try await transport.provider().request(target)
            #expect(try response.mapString() == "Bearer t")
            #expect(response.response?.url?.path == "/authorization")
        }
    }

    @Test(arguments: TransportUnderTest.allCases)
    func aRedirectToAnotherOriginDropsAuthorization(_ transport: TransportUnderTest) async throws {
        let other = try await TestServer.start(addEcho)
        try await TestServer.with({ router in
            router.get("away") { _, _ in
                Hummingbird.Response(
                    status: .found,
                    headers: [.location: other.baseURL.appendingPathComponent("authorization").absoluteString]
                )
            }
        }) { server in
            let target = DynamicTarget(baseURL: server.baseURL, path: "/away", headers: ["Authorization": "Bearer t"])
            let response = try await transport.provider().request(target)
            #expect(response.statusCode == 200)
            #expect(try response.mapString() == "none")
        }
    }

    @Test(arguments: TransportUnderTest.allCases)
    func aRedirectLoopFailsWithTooManyRedirectsAfterTheSessionsLimit(_ transport: TransportUnderTest) async throws {
        let hits = Counter()
        try await TestServer.with({ router in
            router.get("loop") { _, _ in
                let count = hits.increment()
                return Hummingbird.Response(status: .found, headers: [.location: "/loop?n=\(count)"])
            }
        }) { server in
            let configuration = Session.Configuration(
                redirectConfiguration: .follow(max: 3, allowCycles: true),
                cookieStorage: nil
            )
            let error = await expectUnderlyingFailure("a redirect loop must fail") {
                try await transport.provider(configuration).request(
                    DynamicTarget(baseURL: server.baseURL, path: "/loop")
                )
            }
            #expect(error?.code == NSURLErrorHTTPTooManyRedirects)
            #expect(hits.count == 4)
        }
    }

    @Test(arguments: TransportUnderTest.allCases)
    func aBasicChallengeReachesTheLifecycleWhichAnswersItOnce(_ transport: TransportUnderTest) async throws {
        let attempts = Counter()
        let expected = "Basic " + Data("moya:s3cret".utf8).base64EncodedString()
        try await TestServer.with({ router in
            router.get("basic") { request, _ -> Hummingbird.Response in
                attempts.increment()
                guard request.headers[.authorization] == expected else {
                    return Hummingbird.Response(
                        status: .unauthorized,
                        headers: [.wwwAuthenticate: "Basic realm=\"moya\""],
                        body: .init(byteBuffer: ByteBuffer(string: "who are you?"))
                    )
                }
                return Hummingbird.Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: "basic ok")))
            }
        }) { server in
            let credential = URLCredential(user: "moya", password: "s3cret", persistence: .none)
            let provider = MoyaProvider<DynamicTarget>(
                session: transport.session(),
                plugins: [CredentialsPlugin { _ in credential }]
            )
            let response = try await provider.request(DynamicTarget(baseURL: server.baseURL, path: "/basic"))
            #expect(try response.mapString() == "basic ok")
            #expect(attempts.count == 2)
        }
    }

    @Test(arguments: TransportUnderTest.allCases)
    func aChallengeWithoutCredentialsIsDeliveredAsTheServersResponse(_ transport: TransportUnderTest) async throws {
        try await TestServer.with({ router in
            router.get("basic") { _, _ in
                Hummingbird.Response(
                    status: .unauthorized,
                    headers: [.wwwAuthenticate: "Basic realm=\"moya\""],
                    body: .init(byteBuffer: ByteBuffer(string: "who are you?"))
                )
            }
        }) { server in
            let response = try await transport.provider().request(
                DynamicTarget(baseURL: server.baseURL, path: "/basic")
            )
            #expect(response.statusCode == 401)
            #expect(try response.mapString() == "who are you?")
            #expect(response.response?.value(forHTTPHeaderField: "WWW-Authenticate") == "Basic realm=\"moya\"")
        }
    }
}
