import Foundation
import HTTPTypes
import Hummingbird
import LoopbackServer
import Moya
import NIOCore
import Testing

/// A cancelled request completes at once with the cancelled error, whatever it waits for: a
/// token refresh that never ends, a retry back-off, an asynchronous plugin's `prepare`.
@Suite("Cancelling a request that waits")
struct CancelledWaitTests {
    let queue = DispatchQueue(label: "cancelled-wait-tests")

    /// Work that signals when it starts, then waits until the test releases it.
    final class Gate: Sendable {
        let started: AsyncStream<Void>
        private let startedContinuation: AsyncStream<Void>.Continuation
        private let release: AsyncStream<Void>
        private let releaseContinuation: AsyncStream<Void>.Continuation

        init() {
            (started, startedContinuation) = AsyncStream<Void>.makeStream()
            (release, releaseContinuation) = AsyncStream<Void>.makeStream()
        }

        /// Announces the start, then waits, ignoring cancellation, until `open()`.
        func pass() async {
            startedContinuation.yield()
            for await _ in release {}
        }

        func waitUntilStarted() async {
            for await _ in started { return }
        }

        func open() {
            releaseContinuation.finish()
        }
    }

    struct Token: AuthenticationCredential {
        var value: String
        var requiresRefresh: Bool { value == "expired" }
    }

    /// Its refresh waits on the gate, however long that takes.
    struct StuckAuthenticator: Authenticator {
        let gate: Gate

        func apply(_ credential: Token, to request: inout URLRequest) {
            request.setValue("Bearer \(credential.value)", forHTTPHeaderField: "Authorization")
        }

        func refresh(_ credential: Token) async throws -> Token {
            await gate.pass()
            return Token(value: "fresh")
        }

        func isRequest(_ request: URLRequest, authenticatedWith credential: Token) -> Bool {
            request.value(forHTTPHeaderField: "Authorization") == "Bearer \(credential.value)"
        }
    }

    /// Retries the first attempt after an hour, announcing the decision through the gate.
    struct SlowRetrier: RequestInterceptor {
        let decided: AsyncStream<Void>.Continuation

        func retry(
            _ request: URLRequest,
            for target: TargetType,
            attempt: Int,
            dueTo result: Result<Moya.Response, MoyaError>
        ) async -> RetryResult {
            decided.yield()
            return attempt == 1 ? .retryWithDelay(3600) : .doNotRetry
        }
    }

    /// Its `prepare` waits on the gate.
    struct StuckPlugin: AsyncPluginType {
        let gate: Gate

        func prepare(_ request: URLRequest, target: TargetType) async throws -> URLRequest {
            await gate.pass()
            return request
        }
    }

    /// An interceptor holding an expired token, so every request first waits on `gate`'s refresh.
    private func stuckRefresh(_ gate: Gate) -> AuthenticationInterceptor<StuckAuthenticator> {
        AuthenticationInterceptor(authenticator: StuckAuthenticator(gate: gate), credential: Token(value: "expired"))
    }

    private func addOK(_ router: Router<BasicRequestContext>) {
        router.get("ok") { _, _ in "ok" }
    }

    /// Starts a request with the callback API, cancels it once `started` returns, and returns
    /// what the completion received.
    private func cancelAfterStart(
        _ provider: MoyaProvider<DynamicTarget>,
        _ target: DynamicTarget,
        started: () async -> Void
    ) async -> Result<Moya.Response, MoyaError> {
        let (results, continuation) = AsyncStream<Result<Moya.Response, MoyaError>>.makeStream()
        let token = provider.request(target, callbackQueue: queue) { result in
            continuation.yield(result)
        }
        await started()
        token.cancel()
        for await result in results {
            return result
        }
        return .failure(.requestMapping("no completion"))
    }

    private func expectCancelled(
        _ result: Result<Moya.Response, MoyaError>,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard case .failure(let error) = result else {
            Issue.record("expected the cancelled error, got \(result)", sourceLocation: sourceLocation)
            return
        }
        #expect(error.isCancellation, "\(error)", sourceLocation: sourceLocation)
    }

    @Test(.timeLimit(.minutes(1)))
    func aRequestWaitingForARefreshThatNeverEndsCompletesAtOnceWhenCancelled() async throws {
        let gate = Gate()
        defer { gate.open() }
        try await TestServer.with(addOK) { server in
            let provider = MoyaProvider<DynamicTarget>(interceptor: stuckRefresh(gate))
            let result = await cancelAfterStart(provider, DynamicTarget(baseURL: server.baseURL, path: "/ok")) {
                await gate.waitUntilStarted()
            }
            expectCancelled(result)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func anAwaitedRequestWaitingForARefreshThrowsCancelledWhenItsTaskIsCancelled() async throws {
        let gate = Gate()
        defer { gate.open() }
        try await TestServer.with(addOK) { server in
            let provider = MoyaProvider<DynamicTarget>(interceptor: stuckRefresh(gate))
            let target = DynamicTarget(baseURL: server.baseURL, path: "/ok")
            let task = _Concurrency.Task { try await provider.request(target) }
            await gate.waitUntilStarted()
            task.cancel()
            let result = await task.result.mapError { $0 as? MoyaError ?? .underlying($0, nil) }
            expectCancelled(result)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func theRefreshGoesOnForTheNextRequestAfterAWaiterCancelled() async throws {
        let gate = Gate()
        try await TestServer.with(addOK) { server in
            let provider = MoyaProvider<DynamicTarget>(interceptor: stuckRefresh(gate))
            let target = DynamicTarget(baseURL: server.baseURL, path: "/ok")
            expectCancelled(await cancelAfterStart(provider, target) { await gate.waitUntilStarted() })
            let next = _Concurrency.Task { try await provider.request(target) }
            gate.open()
            let response = try await next.value
            #expect(response.request?.value(forHTTPHeaderField: "Authorization") == "Bearer fresh")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aRequestWaitingOutARetryBackOffCompletesAtOnceWhenCancelled() async throws {
        let (decided, decidedContinuation) = AsyncStream<Void>.makeStream()
        try await TestServer.with(addOK) { server in
            let provider = MoyaProvider<DynamicTarget>(interceptor: SlowRetrier(decided: decidedContinuation))
            let result = await cancelAfterStart(provider, DynamicTarget(baseURL: server.baseURL, path: "/ok")) {
                for await _ in decided { return }
            }
            expectCancelled(result)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aRequestWaitingForAnAsyncPluginsPrepareCompletesAtOnceWhenCancelled() async throws {
        let gate = Gate()
        defer { gate.open() }
        try await TestServer.with(addOK) { server in
            let provider = MoyaProvider<DynamicTarget>(plugins: [StuckPlugin(gate: gate)])
            let result = await cancelAfterStart(provider, DynamicTarget(baseURL: server.baseURL, path: "/ok")) {
                await gate.waitUntilStarted()
            }
            expectCancelled(result)
        }
    }
}
