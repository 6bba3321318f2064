import AsyncHTTPClient
import Foundation
import Hummingbird
import LoopbackServer
import NIOCore
import Testing

@testable import Moya

/// The environment's proxies, as curl reads them, and a request sent through one on loopback.
@Suite("Proxies from the environment")
struct NetworkProxyTests {
    @Test func theVariablesAreReadAsCurlReadsThem() {
        let environment = ProxyEnvironment.fromEnvironment([
            "http_proxy": "http://user:p%40ss@proxy.corp:3128",
            "HTTP_PROXY": "http://ignored.example:1",
            "HTTPS_PROXY": "secure.corp",
            "NO_PROXY": "localhost, .internal.corp,10.0.0.1",
        ])
        #expect(
            environment.http
                == .server(host: "proxy.corp", port: 3128, authorization: .basic(username: "user", password: "p@ss"))
        )
        #expect(environment.https == .server(host: "secure.corp", port: 1080))
        #expect(environment.noProxy == ["localhost", "internal.corp", "10.0.0.1"])
    }

    @Test func theUpperCaseHTTPProxyAloneIsIgnoredAsCurlIgnoresIt() {
        #expect(ProxyEnvironment.fromEnvironment(["HTTP_PROXY": "http://evil.example:8080"]).isEmpty)
    }

    @Test func allProxyFillsInAndSocksAndUnusableValuesAreRecognised() {
        let environment = ProxyEnvironment.fromEnvironment([
            "all_proxy": "socks5://gate:9050", "https_proxy": "ftp://x",
        ])
        #expect(environment.http == .socksServer(host: "gate", port: 9050))
        #expect(environment.https == .socksServer(host: "gate", port: 9050))
        #expect(ProxyEnvironment.proxy(from: "https://tls-proxy:443") == nil)
        #expect(ProxyEnvironment.proxy(from: "") == nil)
    }

    @Test func noProxyMatchesTheHostAndItsSubdomainsOnly() throws {
        let proxy = HTTPClient.Configuration.Proxy.server(host: "proxy", port: 8080)
        let environment = ProxyEnvironment(http: proxy, https: proxy, noProxy: ["example.com"])
        let url = { (string: String) in try #require(URL(string: string)) }
        #expect(environment.proxy(for: try url("http://example.com/a")) == nil)
        #expect(environment.proxy(for: try url("https://api.example.com/a")) == nil)
        #expect(environment.proxy(for: try url("http://notexample.com/a")) == proxy)
        #expect(ProxyEnvironment(http: proxy, noProxy: ["*"]).proxy(for: try url("http://any.host/")) == nil)
        #expect(ProxyEnvironment(https: proxy).proxy(for: try url("http://plain.host/")) == nil)
    }

    @Test func aConfigurationWithNoProxyVariablesHasNoEnvironmentProxy() {
        #expect(AsyncHTTPClientTransport.Configuration(proxyEnvironment: ProxyEnvironment()).proxyEnvironment == nil)
    }

    @Test func anHTTPRequestGoesThroughTheEnvironmentsProxyUnlessItsHostIsExempt() async throws {
        try await TestServer.with({ router in
            router.get("zen") { request, _ in
                let host = request.head.authority ?? "-"
                return Hummingbird.Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: "served \(host)")))
            }
        }) { server in
            let proxy = try TestProxy(forwardingTo: try #require(server.baseURL.port))
            let upstream = try #require(URL(string: "http://upstream.moya.test:8080"))
            let environment = ProxyEnvironment(
                http: .server(host: "127.0.0.1", port: proxy.port),
                noProxy: ["127.0.0.1"]
            )
            let provider = MoyaProvider<DynamicTarget>(
                session: Session(
                    configuration: .init(cookieStorage: nil, asyncHTTPClient: .init(proxyEnvironment: environment))
                )
            )
            // The name does not resolve: only the proxy can have reached it.
            let proxied = try await provider.request(DynamicTarget(baseURL: upstream, path: "/zen"))
            #expect(try proxied.mapString() == "served upstream.moya.test:8080")
            #expect(proxy.forwardedTargets == ["http://upstream.moya.test:8080/zen"])

            let exempt = try await provider.request(DynamicTarget(baseURL: server.baseURL, path: "/zen"))
            #expect(exempt.statusCode == 200)
            #expect(proxy.visits.count == 1)
        }
    }

    @Test func aSessionWithoutAnEnvironmentGoesDirectly() async throws {
        let upstream = try #require(URL(string: "http://upstream.moya.test:8080"))
        let provider = MoyaProvider<DynamicTarget>(
            session: Session(configuration: .init(asyncHTTPClient: .init(proxyEnvironment: nil)))
        )
        await #expect(throws: MoyaError.self) {
            _ = try await provider.request(DynamicTarget(baseURL: upstream, path: "/zen"))
        }
    }
}
