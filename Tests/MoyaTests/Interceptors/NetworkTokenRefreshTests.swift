import Foundation
import HTTPTypes
import Hummingbird
import LoopbackServer
import Moya
import NIOCore
import Testing

@Suite("Token refresh against a protected local server")
struct NetworkTokenRefreshTests {
    /// A bearer token; `expiresSoon` makes the interceptor refresh it before use.
    struct Token: AuthenticationCredential, Equatable {
        var value: String
        var expiresSoon = false
        var requiresRefresh: Bool { expiresSoon }
    }

    /// Refreshes `t<n>` into `t<n+1>`, counting refreshes, optionally waiting for a signal
    /// first or failing.
    struct TokenAuthenticator: Authenticator {
        let refreshes: Counter
        var waitBeforeRefreshing: AsyncStream<Void>? = nil
        var fails = false

        func apply(_ credential: Token, to request: inout URLRequest) {
            request.setValue("Bearer \(credential.value)", forHTTPHeaderField: "Authorization")
        }

        func refresh(_ credential: Token) async throws -> Token {
            refreshes.increment()
            if let waitBeforeRefreshing {
                for await _ in waitBeforeRefreshing { break }
            }
            if fails {
                throw URLError(.userAuthenticationRequired)
            }
            let number = Int(credential.value.dropFirst()) ?? 0
            return Token(value: "t\(number + 1)")
        }

        func isRequest(_ request: URLRequest, authenticatedWith credential: Token) -> Bool {
            request.value(forHTTPHeaderField: "Authorization") == "Bearer \(credential.value)"
        }
    }

    /// `/protected` accepts only `Bearer <valid>`; each 401 is counted and announced.
    private func addProtected(
        _ router: Router<BasicRequestContext>,
        valid: String,
        rejections: Counter,
        rejected: AsyncStream<Int>.Continuation? = nil
    ) {
        router.get("protected") { request, _ -> Response in
            guard request.headers[.authorization] == "Bearer \(valid)" else {
                let count = rejections.increment()
                rejected?.yield(count)
                return Response(status: .unauthorized)
            }
            return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: valid)))
        }
    }

    @Test func anExpiredTokenIsRefreshedOnceAndTheRequestReplayed() async throws {
        let refreshes = Counter()
        let rejections = Counter()
        try await TestServer.with({ addProtected($0, valid: "t2", rejections: rejections) }) { server in
            let auth = AuthenticationInterceptor(
                authenticator: TokenAuthenticator(refreshes: refreshes),
                credential: Token(value: "t1")
            )
            let provider = MoyaProvider<DynamicTarget>(interceptor: auth)
            let response = try await provider.request(DynamicTarget(baseURL: server.baseURL, path: "/protected"))
            #expect(try response.mapString() == "t2")
            #expect(await auth.credential == Token(value: "t2"))
        }
        #expect(refreshes.count == 1)
        #expect(rejections.count == 1)
    }

    @Test(.timeLimit(.minutes(1)))
    func concurrentRequestsShareOneRefreshAndAllSucceed() async throws {
        let refreshes = Counter()
        let rejections = Counter()
        let requests = 8
        let (rejected, rejectedContinuation) = AsyncStream<Int>.makeStream()
        let (allRejected, allRejectedContinuation) = AsyncStream<Void>.makeStream()
        // The refresh finishes only once every request has been refused with the old token.
        _Concurrency.Task {
            for await count in rejected where count == requests {
                allRejectedContinuation.yield()
                break
            }
        }
        try await TestServer.with({
            addProtected($0, valid: "t2", rejections: rejections, rejected: rejectedContinuation)
        }) { server in
            let authenticator = TokenAuthenticator(refreshes: refreshes, waitBeforeRefreshing: allRejected)
            let auth = AuthenticationInterceptor(authenticator: authenticator, credential: Token(value: "t1"))
            let provider = MoyaProvider<DynamicTarget>(interceptor: auth)
            let target = DynamicTarget(baseURL: server.baseURL, path: "/protected")
            let bodies = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<requests {
                    group.addTask { try await provider.request(target).mapString() }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(bodies == Array(repeating: "t2", count: requests))
        }
        #expect(refreshes.count == 1)
        #expect(rejections.count == requests)
    }

    @Test func aFailedRefreshFailsTheRequestWithAClearError() async throws {
        let refreshes = Counter()
        try await TestServer.with({ addProtected($0, valid: "t2", rejections: Counter()) }) { server in
            let authenticator = TokenAuthenticator(refreshes: refreshes, fails: true)
            let auth = AuthenticationInterceptor(authenticator: authenticator, credential: Token(value: "t1"))
            let provider = MoyaProvider<DynamicTarget>(interceptor: auth)
            do {
                _ = try await provider.request(DynamicTarget(baseURL: server.baseURL, path: "/protected"))
                Issue.record("a failed refresh must fail the request")
            } catch {
                guard case .underlying(let inner, let response)? = error as? MoyaError,
                    case .refreshFailed? = inner as? AuthenticationError
                else {
                    Issue.record("expected AuthenticationError.refreshFailed, got \(error)")
                    return
                }
                #expect(response?.statusCode == 401)
            }
        }
        #expect(refreshes.count == 1)
    }

    @Test func aTokenThatRequiresRefreshIsRefreshedBeforeTheFirstAttempt() async throws {
        let refreshes = Counter()
        let rejections = Counter()
        try await TestServer.with({ addProtected($0, valid: "t2", rejections: rejections) }) { server in
            let auth = AuthenticationInterceptor(
                authenticator: TokenAuthenticator(refreshes: refreshes),
                credential: Token(value: "t1", expiresSoon: true)
            )
            let provider = MoyaProvider<DynamicTarget>(interceptor: auth)
            let response = try await provider.request(DynamicTarget(baseURL: server.baseURL, path: "/protected"))
            #expect(response.statusCode == 200)
        }
        #expect(refreshes.count == 1)
        #expect(rejections.count == 0)
    }

    @Test func aRequestSentWithAnOlderTokenIsReplayedWithoutAnotherRefresh() async throws {
        let refreshes = Counter()
        let auth = AuthenticationInterceptor(
            authenticator: TokenAuthenticator(refreshes: refreshes),
            credential: Token(value: "t2")
        )
        var request = URLRequest(url: URL(fileURLWithPath: "/protected"))
        request.setValue("Bearer t1", forHTTPHeaderField: "Authorization")
        let unauthorized = Moya.Response(statusCode: 401, data: Data(), request: request)
        let decision = await auth.retry(
            request,
            for: MultiTarget(PipelineTarget.zen),
            attempt: 1,
            dueTo: .success(unauthorized)
        )
        guard case .retry = decision else {
            Issue.record("expected an immediate replay, got \(decision)")
            return
        }
        #expect(refreshes.count == 0)
    }

    @Test func noCredentialFailsBeforeAnythingIsSent() async {
        let auth = AuthenticationInterceptor<TokenAuthenticator>(
            authenticator: TokenAuthenticator(refreshes: Counter())
        )
        let provider = MoyaProvider<PipelineTarget>(stubClosure: MoyaProvider.immediatelyStub, interceptor: auth)
        do {
            _ = try await provider.request(.zen)
            Issue.record("a request without a credential must fail")
        } catch {
            guard case .underlying(let inner, nil) = error, case .missingCredential? = inner as? AuthenticationError
            else {
                Issue.record("expected AuthenticationError.missingCredential, got \(error)")
                return
            }
        }
    }
}
