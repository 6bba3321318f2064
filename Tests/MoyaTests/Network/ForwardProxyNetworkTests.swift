import Foundation
import HTTPTypes
import Hummingbird
import LoopbackServer
import NIOCore
import NIOSSL
import Testing

@testable import Moya

/// Plain-`http` requests through an HTTP proxy, as curl and URLSession send them: in absolute
/// form to a proxy that, like most, allows `CONNECT` only to port 443; `https` still tunnels.
@Suite("Forward proxy: absolute-form requests")
struct ForwardProxyNetworkTests {
    /// A session whose every request goes through `proxy`, with `user:secret` as its credentials.
    private func provider(
        through proxy: TestProxy,
        readTimeout: Duration = .seconds(60)
    ) -> MoyaProvider<DynamicTarget> {
        let configuration = Session.Configuration(
            readTimeout: readTimeout,
            cookieStorage: nil,
            asyncHTTPClient: .init(
                proxy: .server(
                    host: "127.0.0.1",
                    port: proxy.port,
                    authorization: .basic(username: "user", password: "secret")
                ),
                proxyEnvironment: nil
            )
        )
        return MoyaProvider<DynamicTarget>(session: Session(configuration: configuration))
    }

    @Test func anUploadReachesItsServerThroughAProxyThatTunnelsOnlyToPort443WithItsCredentialsKeptFromTheServer()
        async throws
    {
        let sawProxyAuthorization = try #require(HTTPField.Name("X-Saw-Proxy-Authorization"))
        let sawHost = try #require(HTTPField.Name("X-Saw-Host"))
        try await TestServer.with({ router in
            router.post("echo") { request, _ -> Hummingbird.Response in
                let body = try await request.body.collect(upTo: 1 << 20)
                var headers = HTTPFields()
                headers[sawProxyAuthorization] = request.headers[.proxyAuthorization] == nil ? "no" : "yes"
                headers[sawHost] = request.head.authority ?? "-"
                return Hummingbird.Response(status: .ok, headers: headers, body: .init(byteBuffer: body))
            }
        }) { server in
            let proxy = try TestProxy(forwardingTo: try #require(server.baseURL.port), allowsConnect: { $0 == 443 })
            let upload = Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0) })
            // The name does not resolve: only the proxy can have reached it.
            let target = DynamicTarget(
                baseURL: try #require(URL(string: "http://upstream.moya.test:8080")),
                path: "/echo",
                method: .post,
                makeTask: { .requestData(upload) }
            )
            let response = try await provider(through: proxy).request(target)

            #expect(response.data == upload)
            #expect(response.response?.value(forHTTPHeaderField: "X-Saw-Proxy-Authorization") == "no")
            #expect(response.response?.value(forHTTPHeaderField: "X-Saw-Host") == "upstream.moya.test:8080")
            let visit = TestProxy.Visit(
                method: "POST",
                target: "http://upstream.moya.test:8080/echo",
                proxyAuthorization: "Basic dXNlcjpzZWNyZXQ="
            )
            #expect(proxy.visits == [visit])
        }
    }

    @Test func anHTTPSRequestStillTunnelsThroughCONNECT() async throws {
        let certificates = try TestCertificates.makeAuthority()
        let leaf = try certificates.makeLeaf(dnsNames: ["localhost"])
        let server = try await TestServer.startTLS(identity: leaf, TestServer.addHello)
        let port = try #require(server.baseURL.port)
        let proxy = try TestProxy(forwardingTo: port, allowsConnect: { $0 == port })
        let configuration = Session.Configuration(
            tlsConfiguration: .trusting(certificates.authority.certificate),
            cookieStorage: nil,
            asyncHTTPClient: .init(proxy: .server(host: "127.0.0.1", port: proxy.port), proxyEnvironment: nil)
        )
        let provider = MoyaProvider<DynamicTarget>(session: Session(configuration: configuration))

        let response = try await provider.request(DynamicTarget(baseURL: server.baseURL, path: "/hello"))

        #expect(try response.mapString() == "secure hello")
        #expect(proxy.requestedTargets == ["localhost:\(port)"])
        #expect(proxy.forwardedTargets.isEmpty)
    }

    @Test(.timeLimit(.minutes(1)))
    func aStreamThroughTheProxyKeepsEveryByteOfABodyCutShortBeforeItsFailure() async throws {
        // As the direct stream test: the reader starts after the server wrote everything and
        // closed, so parts read while it held the transfer back must reach it before the failure.
        let sent = 600_000
        let (server, closed) = try await RawServer.startCuttingBody(after: sent)
        defer { _Concurrency.Task { await server.stop() } }
        let proxy = try TestProxy(forwardingTo: try #require(server.baseURL.port), allowsConnect: { $0 == 443 })
        let provider = provider(through: proxy)
        var closings = closed.makeAsyncIterator()
        for _ in 0..<8 {
            let streamed = try await provider.stream(DynamicTarget(baseURL: server.baseURL, path: "/"))
            _ = await closings.next()
            let (received, failure) = await readCounting(streamed)
            #expect(received == sent)
            guard case .underlying(let underlying, _) = failure else {
                Issue.record("expected a transport fault, got \(String(describing: failure))")
                continue
            }
            #expect((underlying as NSError).domain == NSURLErrorDomain)
            // A body shorter than its `Content-Length` is a bad response, as without a proxy.
            #expect((underlying as NSError).code == NSURLErrorBadServerResponse)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aServerThatStallsBehindTheProxyFailsWithTheIdleTimeout() async throws {
        let server = try await RawServer.start(
            response: "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nhalf",
            ending: .stall
        )
        defer { _Concurrency.Task { await server.stop() } }
        let proxy = try TestProxy(forwardingTo: try #require(server.baseURL.port))
        let sanitized = ProcessInfo.processInfo.environment["MOYA_TEST_SANITIZER"] != nil

        let provider = provider(through: proxy, readTimeout: sanitized ? .seconds(5) : .milliseconds(300))

        let error = await expectUnderlyingFailure("a stalled body must time out") {
            try await provider.request(DynamicTarget(baseURL: server.baseURL, path: "/"))
        }
        #expect(error?.domain == NSURLErrorDomain)
        #expect(error?.code == NSURLErrorTimedOut)
    }

    @Test(.timeLimit(.minutes(1)))
    func cancellingARequestWaitingBehindTheProxyEndsItWithCancelled() async throws {
        let (arrived, arrivedContinuation) = AsyncStream<Void>.makeStream()
        try await TestServer.with({ router in
            router.get("slow") { _, _ -> Hummingbird.Response in
                arrivedContinuation.yield()
                try await _Concurrency.Task.sleep(for: .seconds(30))
                return Hummingbird.Response(status: .ok)
            }
        }) { server in
            let proxy = try TestProxy(forwardingTo: try #require(server.baseURL.port))
            let provider = provider(through: proxy)
            let request = _Concurrency.Task {
                try await provider.request(DynamicTarget(baseURL: server.baseURL, path: "/slow"))
            }
            for await _ in arrived { break }
            request.cancel()

            let result = await request.result
            guard case .failure(let error as MoyaError) = result else {
                Issue.record("expected a cancellation, got \(result)")
                return
            }
            #expect(error.isCancellation)
        }
    }
}
