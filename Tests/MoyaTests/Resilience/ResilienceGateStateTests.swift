import Testing

@testable import Moya

/// The gate's bookkeeping alone: the order of the checks, and memory that stays bounded
/// whatever the number of hosts.
@Suite("Resilience gate: state")
struct ResilienceGateStateTests {
    /// A half-open trial holding a place that succeeded at once.
    private let succeededTrial = ResilienceGate.State.Ended(
        heldPlace: true,
        trial: true,
        outcome: .success,
        duration: 0,
        hints: nil
    )

    private let all = ResiliencePolicies(
        circuitBreaker: CircuitBreaker(windowSize: 2, minimumCalls: 2, openDuration: 10, halfOpenTrials: 2),
        concurrencyLimit: ConcurrencyLimit(maximumConcurrentRequests: 1, maximumQueueLength: 0),
        rateLimit: RateLimit(requestsPerSecond: 1, burst: 5)
    )

    @Test func anIdleHostsStateIsDroppedAndABusyOneKept() {
        var state = ResilienceGate.State(policies: all, idleAfter: 60)
        for index in 0..<300 {
            let key = "http://host-\(index):80"
            _ = state.admit(key: key, waiter: index, now: 0)
            _ = state.release(
                key: key,
                ResilienceGate.State.Ended(
                    heldPlace: true,
                    trial: false,
                    outcome: .success,
                    duration: 0,
                    hints: nil
                ),
                now: 0
            )
        }
        _ = state.admit(key: "busy", waiter: 1000, now: 100)
        #expect(state.hosts.count == 301)
        // The next sweep, 256 admissions on, drops every host idle for a minute.
        for index in 0..<257 {
            _ = state.admit(key: "busy", waiter: 2000 + index, now: 200)
        }
        #expect(Set(state.hosts.keys) == ["busy"])
    }

    /// Two failed calls to `k` at time 0: the breaker opens until 10.
    private func openBreaker(_ state: inout ResilienceGate.State) {
        for waiter in 0..<2 {
            _ = state.admit(key: "k", waiter: waiter, now: 0)
            _ = state.release(
                key: "k",
                ResilienceGate.State.Ended(
                    heldPlace: true,
                    trial: false,
                    outcome: .failure,
                    duration: 0,
                    hints: nil
                ),
                now: 0
            )
        }
    }

    @Test func anOpenBreakerRefusesBeforeTheRateLimitTakesATurn() {
        var state = ResilienceGate.State(policies: all)
        openBreaker(&state)
        for waiter in 2..<40 {
            #expect(state.admit(key: "k", waiter: waiter, now: 1) == .circuitOpen(retryAt: 10))
        }
        // Had the 38 refusals taken turns at one a second, this one would wait half a minute.
        #expect(state.admit(key: "k", waiter: 40, now: 10) == .go(wait: 0, trial: true, place: .held))
    }

    @Test func aFullLineGivesTheBreakersTrialBack() {
        var state = ResilienceGate.State(policies: all)
        openBreaker(&state)
        #expect(state.admit(key: "k", waiter: 2, now: 10) == .go(wait: 0, trial: true, place: .held))
        #expect(state.admit(key: "k", waiter: 3, now: 10) == .lineFull)
        // The refused request gave its trial place back: the second trial is still to come.
        _ = state.release(key: "k", succeededTrial, now: 11)
        #expect(state.admit(key: "k", waiter: 4, now: 11) == .go(wait: 0, trial: true, place: .held))
    }

    @Test func eachChangeOfABreakersStateIsKeptOnceWithItsKeyInOrder() {
        var state = ResilienceGate.State(policies: all)
        #expect(state.takeBreakerChanges().isEmpty)
        openBreaker(&state)
        // Refusals while open change nothing.
        _ = state.admit(key: "k", waiter: 2, now: 1)
        var changes = state.takeBreakerChanges()
        #expect(changes.map(\.key) == ["k"])
        #expect(changes.map(\.state) == [.open])
        #expect(state.takeBreakerChanges().isEmpty)

        // Two trials: the first admitted makes it half-open, the second success closes it.
        _ = state.admit(key: "k", waiter: 3, now: 10)
        _ = state.release(key: "k", succeededTrial, now: 10)
        _ = state.admit(key: "k", waiter: 4, now: 10)
        _ = state.release(key: "k", succeededTrial, now: 10)
        changes = state.takeBreakerChanges()
        #expect(changes.map(\.state) == [.halfOpen, .closed])
        #expect(changes.allSatisfy { $0.key == "k" })
    }
}
