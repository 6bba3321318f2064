import Foundation
import Hummingbird
import LoopbackServer
import NIOConcurrencyHelpers
import Testing

@testable import Moya

/// The resilience policies over the network: what reaches the server, and what callers get.
@Suite("Resilience policies over the network")
struct ResilienceNetworkTests {
    /// A clock the test moves by hand.
    final class ManualClock: Sendable {
        private let seconds = NIOLockedValueBox(1000.0)
        var now: Double { seconds.withLockedValue { $0 } }
        func advance(_ by: Double) { seconds.withLockedValue { $0 += by } }
    }

    /// Records whether each result a plugin hears of succeeded.
    final class OutcomeRecorder: PluginType, Sendable {
        let outcomes = NIOLockedValueBox<[Bool]>([])

        func didReceive(_ result: Result<Moya.Response, MoyaError>, target: TargetType) {
            let succeeded = (try? result.get()) != nil
            outcomes.withLockedValue { $0.append(succeeded) }
        }
    }

    private func provider(
        _ policies: ResiliencePolicies,
        interceptor: RequestInterceptor? = nil,
        plugins: [PluginType] = []
    ) -> MoyaProvider<DynamicTarget> {
        var configuration = Session.Configuration(cookieStorage: nil)
        configuration.resilience = policies
        return MoyaProvider<DynamicTarget>(
            session: Session(configuration: configuration),
            plugins: plugins,
            interceptor: interceptor
        )
    }

    private func clientError(_ result: Result<Moya.Response, MoyaError>) -> MoyaClientError? {
        guard case .failure(let error) = result else { return nil }
        return error.clientError
    }

    private func send(
        _ provider: MoyaProvider<DynamicTarget>,
        _ target: DynamicTarget
    ) async -> Result<Moya.Response, MoyaError> {
        do throws(MoyaError) {
            return .success(try await provider.request(target))
        } catch {
            return .failure(error)
        }
    }

    @Test func anOpenBreakerFailsAtOnceWithoutSendingThenATrialClosesIt() async throws {
        let hits = Counter()
        let healthy = NIOLockedValueBox(false)
        try await TestServer.with({ router in
            router.get("flaky") { _, _ -> Hummingbird.Response in
                hits.increment()
                return Hummingbird.Response(status: healthy.withLockedValue { $0 } ? .ok : .serviceUnavailable)
            }
        }) { server in
            let clock = ManualClock()
            var policies = ResiliencePolicies(
                circuitBreaker: CircuitBreaker(windowSize: 4, minimumCalls: 4, openDuration: 30, halfOpenTrials: 1)
            )
            policies.clock = { clock.now }
            let plugin = OutcomeRecorder()
            let provider = provider(policies, plugins: [plugin])
            let target = DynamicTarget(baseURL: server.baseURL, path: "/flaky")
            for _ in 0..<4 {
                let response = try await provider.request(target)
                #expect(response.statusCode == 503)
            }
            let refused = await send(provider, target)
            let error = try #require(clientError(refused))
            #expect(error.code == .circuitOpen)
            #expect(error.name == ResiliencePolicies.hostKey(URLRequest(url: server.baseURL)))
            let retryAfter = try #require(error.retryAfter)
            #expect(retryAfter.timeIntervalSinceNow > 25 && retryAfter.timeIntervalSinceNow <= 30)
            #expect(hits.count == 4, "an open breaker sends nothing")
            let lastOutcome = plugin.outcomes.withLockedValue { $0.last }
            #expect(lastOutcome == false, "plugins see the refusal")

            healthy.withLockedValue { $0 = true }
            clock.advance(30)
            let status1 = try await provider.request(target).statusCode
            #expect(status1 == 200)
            let status2 = try await provider.request(target).statusCode
            #expect(status2 == 200)
            #expect(hits.count == 6)
        }
    }

    @Test func theBudgetLimitsRetriesToAShareOfRequestsAndKeepsTheLastOutcome() async throws {
        try await withFailingUpstream { server, hits in
            let retry = RetryPolicy(retryLimit: 3, exponentialBackoffScale: 0.001, jitter: 0)
            let provider = provider(
                ResiliencePolicies(retryBudget: RetryBudget(percentCanRetry: 0.2, minimumRetriesPerSecond: 0)),
                interceptor: retry
            )
            let target = DynamicTarget(baseURL: server.baseURL, path: "/down")
            for _ in 0..<20 {
                let response = try await provider.request(target)
                #expect(response.statusCode == 503)
            }
            // Without the budget: 20 × 4 = 80. With it: 20, and a fifth of them again.
            #expect(hits.count >= 20 && hits.count <= 24)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func theConcurrencyLimitHoldsRequestsInLineAndRefusesWhenTheLineIsFull() async throws {
        let (release, releaseNow) = AsyncStream<Void>.makeStream()
        let (arrived, arrivedNow) = AsyncStream<Void>.makeStream()
        let inFlight = NIOLockedValueBox((now: 0, most: 0))
        try await TestServer.with({ router in
            router.get("held") { _, _ -> String in
                inFlight.withLockedValue {
                    $0.now += 1
                    $0.most = max($0.most, $0.now)
                }
                arrivedNow.yield()
                for await _ in release { break }
                inFlight.withLockedValue { $0.now -= 1 }
                return "done"
            }
        }) { server in
            var configuration = Session.Configuration(cookieStorage: nil)
            configuration.resilience.concurrencyLimit = ConcurrencyLimit(
                maximumConcurrentRequests: 2,
                maximumQueueLength: 2
            )
            let session = Session(configuration: configuration)
            let provider = MoyaProvider<DynamicTarget>(session: session)
            let target = DynamicTarget(baseURL: server.baseURL, path: "/held")
            let requests = (0..<4).map { _ in _Concurrency.Task { await send(provider, target) } }
            var iterator = arrived.makeAsyncIterator()
            _ = await iterator.next()
            _ = await iterator.next()
            // Two in flight; once two wait in line, a fifth finds the line full.
            let key = ResiliencePolicies.hostKey(URLRequest(url: server.baseURL))
            while session.resilience?.state.withLockedValue({ $0.hosts[key]?.limit?.waiting }) != 2 {
                await _Concurrency.Task.yield()
            }
            let refused = clientError(await send(provider, target))
            #expect(refused?.code == .concurrencyLimitReached)
            releaseNow.finish()
            for request in requests {
                let status3 = try await request.value.get().statusCode
                #expect(status3 == 200)
            }
            let most = inFlight.withLockedValue { $0.most }
            #expect(most == 2)
        }
    }

    /// Without an interceptor, an attempt is admitted as it is sent; with one, before it is
    /// adapted: cancelled while it waits, it leaves the line either way.
    @Test(.timeLimit(.minutes(1)), arguments: [false, true])
    func aCancelledRequestWaitingInLineLeavesItAndIsNeverSent(withInterceptor: Bool) async throws {
        let (release, releaseNow) = AsyncStream<Void>.makeStream()
        let (arrived, arrivedNow) = AsyncStream<Void>.makeStream()
        let hits = Counter()
        try await TestServer.with({ router in
            router.get("held") { _, _ -> String in
                hits.increment()
                arrivedNow.yield()
                for await _ in release { break }
                return "done"
            }
            router.get("fast") { _, _ -> String in
                hits.increment()
                return "fast"
            }
        }) { server in
            var configuration = Session.Configuration(cookieStorage: nil)
            configuration.resilience.concurrencyLimit = ConcurrencyLimit(maximumConcurrentRequests: 1)
            let session = Session(configuration: configuration)
            let provider = MoyaProvider<DynamicTarget>(
                session: session,
                interceptor: withInterceptor ? Interceptor() : nil
            )
            let holder = _Concurrency.Task {
                await send(provider, DynamicTarget(baseURL: server.baseURL, path: "/held"))
            }
            var iterator = arrived.makeAsyncIterator()
            _ = await iterator.next()
            let waiter = _Concurrency.Task {
                await send(provider, DynamicTarget(baseURL: server.baseURL, path: "/fast"))
            }
            let key = ResiliencePolicies.hostKey(URLRequest(url: server.baseURL))
            func waiting() -> Int? {
                session.resilience?.state.withLockedValue { $0.hosts[key]?.limit?.waiting }
            }
            while waiting() != 1 {
                await _Concurrency.Task.yield()
            }
            waiter.cancel()
            let cancelled = await waiter.value
            #expect((try? cancelled.get()) == nil)
            // The request's task leaves the line as it winds down, which may be just after the
            // cancel was delivered: a regression would hang here, until the time limit.
            while waiting() != 0 {
                await _Concurrency.Task.yield()
            }
            releaseNow.finish()
            let status4 = try await holder.value.get().statusCode
            #expect(status4 == 200)
            // The line is empty again: the next request goes at once.
            let status5 = try await provider.request(DynamicTarget(baseURL: server.baseURL, path: "/fast")).statusCode
            #expect(status5 == 200)
            #expect(hits.count == 2, "the cancelled request was never sent")
        }
    }

    @Test func aRetryAfterOnA429HoldsTheHostsNextRequestsAndAWaitTooLongFailsAtOnce() async throws {
        let hits = Counter()
        try await TestServer.with({ router in
            router.get("quota") { _, _ -> Hummingbird.Response in
                hits.increment()
                return Hummingbird.Response(status: .tooManyRequests, headers: [.retryAfter: "120"])
            }
        }) { server in
            let provider = provider(
                ResiliencePolicies(rateLimit: RateLimit(requestsPerSecond: 100, burst: 10, maximumWait: 5))
            )
            let target = DynamicTarget(baseURL: server.baseURL, path: "/quota")
            let status6 = try await provider.request(target).statusCode
            #expect(status6 == 429)
            let refused = await send(provider, target)
            let error = try #require(clientError(refused))
            #expect(error.code == .rateLimited)
            #expect((error.retryAfter?.timeIntervalSinceNow ?? 0) > 100)
            #expect(hits.count == 1)
        }
    }

    @Test func requestsBeyondTheBurstWaitForTheirTurn() async throws {
        try await TestServer.with({ router in
            router.get("ok") { _, _ -> String in "ok" }
        }) { server in
            let provider = provider(ResiliencePolicies(rateLimit: RateLimit(requestsPerSecond: 10, burst: 1)))
            let target = DynamicTarget(baseURL: server.baseURL, path: "/ok")
            let started = ContinuousClock.now
            for _ in 0..<4 {
                _ = try await provider.request(target)
            }
            // Three waits of a tenth of a second at least, however fast the machine.
            #expect(ContinuousClock.now - started >= .milliseconds(290))
        }
    }

    @Test func aStubbedRequestIsNotSubjectToThePolicies() async throws {
        var configuration = Session.Configuration(cookieStorage: nil)
        configuration.resilience = ResiliencePolicies(rateLimit: RateLimit(requestsPerSecond: 0.001, maximumWait: 0))
        let provider = MoyaProvider<DynamicTarget>(
            stubClosure: MoyaProvider.immediatelyStub,
            session: Session(configuration: configuration)
        )
        let target = DynamicTarget(baseURL: URL(fileURLWithPath: "/"), path: "/stub")
        for _ in 0..<3 {
            _ = try await provider.request(target)
        }
    }
}
