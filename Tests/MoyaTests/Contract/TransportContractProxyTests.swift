import Foundation
import Hummingbird
import LoopbackServer
import NIOCore
import Testing

@testable import Moya

/// A proxy the session names itself, through every transport: the request goes through it,
/// or, where the transport cannot take one, is refused before anything is sent.
@Suite("Transport contract: a named proxy")
struct TransportContractProxyTests {
    @Test(arguments: TransportUnderTest.allCases)
    func aSessionsOwnProxyCarriesTheRequestOrItIsRefusedUnsent(_ transport: TransportUnderTest) async throws {
        let hits = Counter()
        try await TestServer.with({ router in
            router.get("zen") { request, _ in
                hits.increment()
                let host = request.head.authority ?? "-"
                return Hummingbird.Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: "served \(host)")))
            }
        }) { server in
            let proxy = try TestProxy(forwardingTo: try #require(server.baseURL.port))
            let configuration = Session.Configuration(
                cookieStorage: nil,
                asyncHTTPClient: .init(proxy: .server(host: "127.0.0.1", port: proxy.port), proxyEnvironment: nil)
            )
            // The name does not resolve: only the proxy can reach it.
            let upstream = try #require(URL(string: "http://upstream.moya.test:8080"))
            let result: Result<Moya.Response, MoyaError>
            do {
                result = .success(
                    try await transport.provider(configuration).request(DynamicTarget(baseURL: upstream, path: "/zen"))
                )
            } catch {
                result = .failure(error as? MoyaError ?? .underlying(error, nil))
            }
            switch transport {
            case .asyncHTTPClient:
                #expect(try result.get().mapString() == "served upstream.moya.test:8080")
                #expect(proxy.forwardedTargets == ["http://upstream.moya.test:8080/zen"])
            case .urlSession:
                guard case .failure(.underlying(let error, nil)) = result else {
                    Issue.record("expected a refusal, got \(result)")
                    return
                }
                #expect((error as? MoyaClientError)?.code == .unsupportedSetting)
                #expect(proxy.visits.isEmpty)
                #expect(hits.count == 0)
            }
        }
    }
}
