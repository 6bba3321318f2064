import Testing

@testable import Moya

/// The retry budget's counts alone: a share of recent requests, a floor per second, and a
/// window that forgets.
@Suite("Retry budget: state machine")
struct RetryBudgetStateMachineTests {
    @Test func retriesAreLimitedToTheShareOfRecentRequests() {
        var budget = RetryBudget.StateMachine(
            settings: RetryBudget(percentCanRetry: 0.2, minimumRetriesPerSecond: 0, window: 10)
        )
        for _ in 0..<10 {
            budget.requestSent(now: 100)
        }
        let granted = [budget.withdraw(now: 100.5), budget.withdraw(now: 101), budget.withdraw(now: 101)]
        #expect(granted == [true, true, false])
    }

    @Test func theFloorAllowsRetriesWithoutTraffic() {
        var budget = RetryBudget.StateMachine(
            settings: RetryBudget(percentCanRetry: 0, minimumRetriesPerSecond: 0.5, window: 4)
        )
        let granted = [budget.withdraw(now: 10), budget.withdraw(now: 10), budget.withdraw(now: 10)]
        #expect(granted == [true, true, false])
    }

    @Test func requestsAndRetriesOlderThanTheWindowAreForgotten() {
        var budget = RetryBudget.StateMachine(
            settings: RetryBudget(percentCanRetry: 0.5, minimumRetriesPerSecond: 0, window: 5)
        )
        budget.requestSent(now: 0)
        budget.requestSent(now: 0)
        let early = [budget.withdraw(now: 1), budget.withdraw(now: 2)]
        #expect(early == [true, false])
        // Five seconds on, the window holds nothing: no traffic, no retries.
        let quiet = budget.withdraw(now: 6)
        #expect(!quiet)
        budget.requestSent(now: 6)
        budget.requestSent(now: 6.5)
        let later = budget.withdraw(now: 7)
        #expect(later)
    }
}
