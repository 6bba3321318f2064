import Foundation
import HTTPTypes
import Hummingbird
import LoopbackServer
import NIOCore
import Testing

@testable import Moya

/// What the session adds around a transport, the same through every transport: its HTTP cache,
/// its retries, its cookies.
@Suite("Transport contract: cache, retries, cookies")
struct TransportContractSessionTests {
    @Test(arguments: TransportUnderTest.allCases)
    func aFreshCachedResponseIsServedWithoutASecondRequest(_ transport: TransportUnderTest) async throws {
        let hits = Counter()
        try await TestServer.with({ router in
            router.get("fresh") { _, _ in
                let count = hits.increment()
                return Hummingbird.Response(
                    status: .ok,
                    headers: [.cacheControl: "max-age=600"],
                    body: .init(byteBuffer: ByteBuffer(string: "answer \(count)"))
                )
            }
        }) { server in
            let provider = transport.provider(.init(cache: .memory(maxBytes: 1 << 20), cookieStorage: nil))
            let target = DynamicTarget(baseURL: server.baseURL, path: "/fresh")
            let first = try await provider.request(target)
            let second = try await provider.request(target)
            #expect(first.cacheStatus == .miss)
            #expect(second.cacheStatus.isFromCache)
            #expect(try second.mapString() == "answer 1")
            #expect(hits.count == 1)
        }
    }

    @Test(arguments: TransportUnderTest.allCases)
    func aRetryPolicySendsAgainAfterA503AndDeliversTheSuccess(_ transport: TransportUnderTest) async throws {
        let hits = Counter()
        try await TestServer.with({ router in
            router.get("flaky") { _, _ in
                hits.increment() == 1
                    ? Hummingbird.Response(status: .serviceUnavailable, headers: [.retryAfter: "0"])
                    : Hummingbird.Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: "recovered")))
            }
        }) { server in
            let provider = transport.provider(
                .init(cookieStorage: nil),
                interceptor: RetryPolicy(exponentialBackoffScale: 600, jitter: 0)
            )
            let response = try await provider.request(DynamicTarget(baseURL: server.baseURL, path: "/flaky"))
            #expect(try response.mapString() == "recovered")
            #expect(hits.count == 2)
        }
    }

    /// `/login` sets a cookie; `/me` answers with the `Cookie` header it received, or "none".
    private func addLogin(_ router: Router<BasicRequestContext>) {
        router.post("login") { _, _ in
            Hummingbird.Response(status: .noContent, headers: [.setCookie: "sid=abc; Path=/"])
        }
        router.get("me") { request, _ in
            Hummingbird.Response(
                status: .ok,
                body: .init(byteBuffer: ByteBuffer(string: request.headers[.cookie] ?? "none"))
            )
        }
    }

    @Test(arguments: TransportUnderTest.allCases)
    func aLoginsCookieIsSentBackOnTheNextRequest(_ transport: TransportUnderTest) async throws {
        let storage = HTTPCookieStorage.sharedCookieStorage(
            forGroupContainerIdentifier: "contract-\(UUID().uuidString)"
        )
        try await TestServer.with(addLogin) { server in
            let provider = transport.provider(.init(cookieStorage: storage))
            _ = try await provider.request(DynamicTarget(baseURL: server.baseURL, path: "/login", method: .post))
            let me = try await provider.request(DynamicTarget(baseURL: server.baseURL, path: "/me"))
            #expect(try me.mapString() == "sid=abc")
        }
    }

    @Test(arguments: TransportUnderTest.allCases)
    func noCookieStorageSendsNoCookie(_ transport: TransportUnderTest) async throws {
        try await TestServer.with(addLogin) { server in
            let provider = transport.provider(.init(cookieStorage: nil))
            _ = try await provider.request(DynamicTarget(baseURL: server.baseURL, path: "/login", method: .post))
            let me = try await provider.request(DynamicTarget(baseURL: server.baseURL, path: "/me"))
            #expect(try me.mapString() == "none")
        }
    }

    @Test(arguments: TransportUnderTest.allCases)
    func aRequestAfterTheSessionShutDownFailsWithSessionShutDownUnsent(_ transport: TransportUnderTest) async throws {
        let hits = Counter()
        try await TestServer.with({ router in
            router.get("me") { _, _ in
                hits.increment()
                return "me"
            }
        }) { server in
            let session = transport.session()
            let provider = MoyaProvider<DynamicTarget>(session: session)
            _ = try await provider.request(DynamicTarget(baseURL: server.baseURL, path: "/me"))
            try await session.shutdown()
            do {
                _ = try await provider.request(DynamicTarget(baseURL: server.baseURL, path: "/me"))
                Issue.record("a shut-down session must refuse the request")
            } catch {
                expectSessionShutDown(error)
            }
            #expect(hits.count == 1, "nothing is sent after the shutdown")
        }
    }
}
