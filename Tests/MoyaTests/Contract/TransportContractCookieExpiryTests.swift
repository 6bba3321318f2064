import Foundation
import HTTPTypes
import Hummingbird
import LoopbackServer
import NIOCore
import Testing

@testable import Moya

/// A cookie's expiry, the same through every transport (RFC 6265 5.2.2): a server that answers
/// `Max-Age=0` or an `Expires` in the past removes the cookie, and a positive `Max-Age` keeps it.
@Suite("Transport contract: cookie expiry")
struct TransportContractCookieExpiryTests {
    /// `/login` sets `sid`, `/logout?with=` expires it the way the query names, `/keep` sets
    /// `pref` for an hour with `Max-Age`, and `/me` echoes the request's `Cookie` header.
    private func addRoutes(_ router: Router<BasicRequestContext>) {
        router.post("login") { _, _ in
            Hummingbird.Response(status: .noContent, headers: [.setCookie: "sid=abc; Path=/"])
        }
        router.post("logout") { request, _ in
            let expiry =
                switch request.uri.queryParameters.get("with") {
                case "expires": "Expires=Thu, 01 Jan 1970 00:00:00 GMT"
                case "negative": "Max-Age=-1"
                default: "Max-Age=0"
                }
            return Hummingbird.Response(status: .noContent, headers: [.setCookie: "sid=gone; Path=/; \(expiry)"])
        }
        router.post("keep") { _, _ in
            Hummingbird.Response(status: .noContent, headers: [.setCookie: "pref=dark; Path=/; Max-Age=3600"])
        }
        router.get("me") { request, _ in
            Hummingbird.Response(
                status: .ok,
                body: .init(byteBuffer: ByteBuffer(string: request.headers[.cookie] ?? "none"))
            )
        }
    }

    private func storage() -> HTTPCookieStorage {
        HTTPCookieStorage.sharedCookieStorage(forGroupContainerIdentifier: "contract-\(UUID().uuidString)")
    }

    private func post(_ path: String, _ query: [String: String] = [:]) -> (URL) -> DynamicTarget {
        { baseURL in
            DynamicTarget(
                baseURL: baseURL,
                path: path,
                method: .post,
                makeTask: { .requestParameters(parameters: query, encoding: URLEncoding.queryString) }
            )
        }
    }

    @Test(arguments: TransportUnderTest.allCases, ["max-age-zero", "negative", "expires"])
    func aCookieTheServerExpiresIsRemovedAndNoLongerSent(_ transport: TransportUnderTest, _ way: String) async throws {
        let storage = storage()
        try await TestServer.with(addRoutes) { server in
            let provider = transport.provider(.init(cookieStorage: storage))
            _ = try await provider.request(post("/login")(server.baseURL))
            let before = try await provider.request(DynamicTarget(baseURL: server.baseURL, path: "/me"))
            #expect(try before.mapString() == "sid=abc")

            _ = try await provider.request(post("/logout", ["with": way])(server.baseURL))
            let after = try await provider.request(DynamicTarget(baseURL: server.baseURL, path: "/me"))
            #expect(try after.mapString() == "none")
            #expect(storage.cookies?.contains { $0.name == "sid" } == false)
        }
    }

    @Test(arguments: TransportUnderTest.allCases)
    func aPositiveMaxAgeGivesTheStoredCookieItsExpiryDate(_ transport: TransportUnderTest) async throws {
        let storage = storage()
        try await TestServer.with(addRoutes) { server in
            let provider = transport.provider(.init(cookieStorage: storage))
            let sent = Date()
            _ = try await provider.request(post("/keep")(server.baseURL))
            let me = try await provider.request(DynamicTarget(baseURL: server.baseURL, path: "/me"))
            #expect(try me.mapString() == "pref=dark")
            let stored = try #require(storage.cookies?.first { $0.name == "pref" })
            let expires = try #require(stored.expiresDate)
            // An hour from when the response arrived: between the request's start and now.
            #expect(expires >= sent.addingTimeInterval(3600 - 1))
            #expect(expires <= Date().addingTimeInterval(3600 + 1))
        }
    }
}
