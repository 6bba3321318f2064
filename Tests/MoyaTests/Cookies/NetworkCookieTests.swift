import Foundation
import HTTPTypes
import Hummingbird
import LoopbackServer
import NIOCore
import Testing

@testable import Moya

/// Cookies kept as URLSession keeps them, against a real server: a login's `Set-Cookie` sent
/// back, an app's own cookie sent, matching by path, and the ways to turn them off.
@Suite("Cookies over the network")
struct NetworkCookieTests {
    /// A storage of its own for each test: the shared one would carry cookies between tests,
    /// since a cookie for 127.0.0.1 matches every port.
    private func storage() -> HTTPCookieStorage {
        HTTPCookieStorage.sharedCookieStorage(forGroupContainerIdentifier: "moya-tests-\(UUID().uuidString)")
    }

    /// `/login` sets `sid=abc` for every path and `scope=admin` for `/admin` only; `/me` and
    /// `/admin/me` echo the request's `Cookie` header.
    private func addRoutes(_ router: Router<BasicRequestContext>) {
        router.post("login") { _, _ in
            var headers = HTTPFields()
            headers.append(HTTPField(name: .setCookie, value: "sid=abc; Path=/; HttpOnly"))
            headers.append(HTTPField(name: .setCookie, value: "scope=admin; Path=/admin"))
            return Hummingbird.Response(status: .noContent, headers: headers)
        }
        for path in ["me", "admin/me"] {
            router.get(RouterPath(path)) { request, _ in
                Hummingbird.Response(
                    status: .ok,
                    body: .init(byteBuffer: ByteBuffer(string: request.headers[.cookie] ?? ""))
                )
            }
        }
    }

    private func provider(_ storage: HTTPCookieStorage?, plugins: [PluginType] = []) -> MoyaProvider<DynamicTarget> {
        MoyaProvider<DynamicTarget>(session: Session(configuration: .init(cookieStorage: storage)), plugins: plugins)
    }

    @Test func theDefaultStorageIsTheSharedOneAsWithURLSession() {
        #expect(Session.Configuration().cookieStorage === HTTPCookieStorage.shared)
    }

    @Test func aLoginsCookieIsSentBackOnTheRequestsItMatches() async throws {
        try await TestServer.with(addRoutes) { server in
            let provider = provider(storage())
            _ = try await provider.request(DynamicTarget(baseURL: server.baseURL, path: "/login", method: .post))
            let me = try await provider.request(DynamicTarget(baseURL: server.baseURL, path: "/me"))
            let admin = try await provider.request(DynamicTarget(baseURL: server.baseURL, path: "/admin/me"))
            #expect(try me.mapString() == "sid=abc")
            let adminCookies = try admin.mapString().components(separatedBy: "; ").sorted()
            #expect(adminCookies == ["scope=admin", "sid=abc"])
        }
    }

    @Test func aCookieTheAppStoredIsSentAndPluginsNeverSeeIt() async throws {
        try await TestServer.with(addRoutes) { server in
            let storage = storage()
            let cookie = HTTPCookie(properties: [
                .name: "token", .value: "from-web-login", .domain: "127.0.0.1", .path: "/",
            ])
            storage.setCookie(try #require(cookie))
            let plugin = StreamPluginRecorder()
            let response = try await provider(storage, plugins: [plugin])
                .request(DynamicTarget(baseURL: server.baseURL, path: "/me"))
            #expect(try response.mapString() == "token=from-web-login")
            #expect(plugin.headers.first?["Cookie"] == nil)
        }
    }

    @Test func aStreamedRequestCarriesAndStoresCookiesToo() async throws {
        try await TestServer.with(addRoutes) { server in
            let provider = provider(storage())
            _ = try await provider.request(DynamicTarget(baseURL: server.baseURL, path: "/login", method: .post))
            let streamed = try await provider.stream(DynamicTarget(baseURL: server.baseURL, path: "/me"))
            var body = Data()
            for try await chunk in streamed.chunks {
                body.append(chunk)
            }
            #expect(String(decoding: body, as: UTF8.self) == "sid=abc")
        }
    }

    @Test func withoutAStorageNoCookieIsStoredOrSent() async throws {
        try await TestServer.with(addRoutes) { server in
            let provider = provider(nil)
            _ = try await provider.request(DynamicTarget(baseURL: server.baseURL, path: "/login", method: .post))
            let me = try await provider.request(DynamicTarget(baseURL: server.baseURL, path: "/me"))
            #expect(try me.mapString() == "")
        }
    }

    @Test func aRequestThatDoesNotHandleCookiesNeitherSendsNorStoresThem() async throws {
        try await TestServer.with(addRoutes) { server in
            let storage = storage()
            let provider = MoyaProvider<DynamicTarget>(
                requestClosure: { endpoint, done in
                    do {
                        var request = try endpoint.urlRequest()
                        request.httpShouldHandleCookies = false
                        done(.success(request))
                    } catch {
                        done(.failure(.underlying(error, nil)))
                    }
                },
                session: Session(configuration: .init(cookieStorage: storage))
            )
            _ = try await provider.request(DynamicTarget(baseURL: server.baseURL, path: "/login", method: .post))
            #expect(storage.cookies?.isEmpty ?? true)
        }
    }

    @Test func aResponseSettingThousandsOfCookiesStoresTheFirstFiftyAndSendsThemBack() async throws {
        try await TestServer.with({ router in
            router.get("flood") { _, _ in
                var headers = HTTPFields()
                for index in 0..<2500 {
                    headers.append(HTTPField(name: .setCookie, value: "c\(index)=v; Path=/"))
                }
                return Hummingbird.Response(status: .noContent, headers: headers)
            }
            addRoutes(router)
        }) { server in
            let storage = storage()
            let provider = provider(storage)
            _ = try await provider.request(DynamicTarget(baseURL: server.baseURL, path: "/flood"))
            // The response's completion runs once its cookies are in the storage.
            #expect(storage.cookies?.count == SetCookieFields.defaultLimit)
            let me = try await provider.request(DynamicTarget(baseURL: server.baseURL, path: "/me"))
            let sent = Set(try me.mapString().components(separatedBy: "; "))
            #expect(sent == Set((0..<SetCookieFields.defaultLimit).map { "c\($0)=v" }))
        }
    }

    @Test func aCookieHeaderTheRequestSetsIsSentAsItIs() async throws {
        try await TestServer.with(addRoutes) { server in
            let provider = provider(storage())
            _ = try await provider.request(DynamicTarget(baseURL: server.baseURL, path: "/login", method: .post))
            var target = DynamicTarget(baseURL: server.baseURL, path: "/me")
            target.headers = ["Cookie": "mine=1"]
            #expect(try await provider.request(target).mapString() == "mine=1")
        }
    }
}

@Suite("Which stored cookies go with a request")
struct CookieMatchingTests {
    private func cookie(path: String, secure: Bool = false, expires: Date? = nil) throws -> HTTPCookie {
        var properties: [HTTPCookiePropertyKey: Any] = [.name: "c", .value: "v", .domain: "example.com", .path: path]
        if secure { properties[.secure] = "TRUE" }
        if let expires { properties[.expires] = expires }
        return try #require(HTTPCookie(properties: properties))
    }

    private func url(_ string: String) throws -> URL {
        try #require(URL(string: string))
    }

    @Test func aPathMatchesItselfAndWhatIsBelowItButNotASiblingPrefix() throws {
        let now = Date()
        let admin = try cookie(path: "/admin")
        #expect(CookieTransport.matches(admin, try url("http://example.com/admin"), now: now))
        #expect(CookieTransport.matches(admin, try url("http://example.com/admin/users"), now: now))
        #expect(!CookieTransport.matches(admin, try url("http://example.com/administrators"), now: now))
        #expect(!CookieTransport.matches(admin, try url("http://example.com/me"), now: now))
        #expect(CookieTransport.matches(try cookie(path: "/"), try url("http://example.com"), now: now))
    }

    @Test func aSecureCookieGoesOverHTTPSOnly() throws {
        let secure = try cookie(path: "/", secure: true)
        #expect(!CookieTransport.matches(secure, try url("http://example.com/"), now: Date()))
        #expect(CookieTransport.matches(secure, try url("https://example.com/"), now: Date()))
    }

    @Test func anExpiredCookieIsNotSent() throws {
        let now = Date()
        let expired = try cookie(path: "/", expires: now.addingTimeInterval(-1))
        #expect(!CookieTransport.matches(expired, try url("http://example.com/"), now: now))
    }
}
