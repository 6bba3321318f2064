import Testing

@testable import Moya

/// The concurrency limit's places and line alone.
@Suite("Concurrency limit: state machine")
struct ConcurrencyLimitStateMachineTests {
    @Test func placesAreGivenUpToTheLimitThenRequestsWaitInOrder() {
        var limit = ConcurrencyLimit.StateMachine(settings: ConcurrencyLimit(maximumConcurrentRequests: 2))
        #expect(limit.acquire(1) == .acquired)
        #expect(limit.acquire(2) == .acquired)
        #expect(limit.acquire(3) == .queued)
        #expect(limit.acquire(4) == .queued)
        #expect(limit.release() == 3)
        #expect(limit.release() == 4)
        #expect(limit.inFlight == 2)
        #expect(limit.release() == nil)
        #expect(limit.release() == nil)
        #expect(limit.isIdle)
    }

    @Test func aFullLineRefusesAtOnce() {
        var limit = ConcurrencyLimit.StateMachine(
            settings: ConcurrencyLimit(maximumConcurrentRequests: 1, maximumQueueLength: 1)
        )
        #expect(limit.acquire(1) == .acquired)
        #expect(limit.acquire(2) == .queued)
        #expect(limit.acquire(3) == .rejected)
    }

    @Test func aWaiterThatLeavesIsSkippedAndOneGivenAPlaceCannotLeave() {
        var limit = ConcurrencyLimit.StateMachine(settings: ConcurrencyLimit(maximumConcurrentRequests: 1))
        #expect(limit.acquire(1) == .acquired)
        #expect(limit.acquire(2) == .queued)
        #expect(limit.acquire(3) == .queued)
        let left = limit.leave(2)
        #expect(left)
        #expect(limit.waiting == 1)
        #expect(limit.release() == 3)
        let placedLeft = limit.leave(3)
        #expect(!placedLeft)
    }

    @Test func aNewRequestDoesNotOvertakeTheLine() {
        var limit = ConcurrencyLimit.StateMachine(settings: ConcurrencyLimit(maximumConcurrentRequests: 1))
        #expect(limit.acquire(1) == .acquired)
        #expect(limit.acquire(2) == .queued)
        #expect(limit.release() == 2)
        #expect(limit.acquire(3) == .queued)
    }
}
