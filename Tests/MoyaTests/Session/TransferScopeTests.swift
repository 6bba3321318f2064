import NIOCore
import Testing

@testable import Moya

/// Which timer enforces a request's whole-request deadline on one trip to the connection pool.
@Suite("Transfer scope: who enforces the deadline")
struct TransferScopeTests {
    /// A point on a made-up clock, `seconds` after its start.
    private func at(_ seconds: Double) -> NIODeadline {
        .uptimeNanoseconds(UInt64(1_000_000_000 + seconds * 1e9))
    }

    private func scope(deadline: NIODeadline?) -> TransferScope {
        TransferScope(configuration: Session.Configuration(), deadline: deadline)
    }

    @Test func aDeadlineBeyondThePoolsOwnWaitIsTheWatchsAlone() {
        let split = scope(deadline: at(60)).deadlines(connectTimeout: .seconds(10), now: at(0))
        #expect(split.client == nil)
        #expect(split.watch == at(60))
    }

    @Test func aDeadlineThatMayPassWhileTheRequestWaitsForAConnectionStaysAsyncHTTPClients() {
        // The pool gives up on a waiting request after the connect timeout (10 s): a deadline
        // before that, or within the margin after it, may find the request still queued.
        for seconds in [0.5, 10.0, 10.9] {
            let split = scope(deadline: at(seconds)).deadlines(connectTimeout: .seconds(10), now: at(0))
            #expect(split.client == at(seconds))
            #expect(split.watch == nil)
        }
        let past = scope(deadline: at(1)).deadlines(connectTimeout: .seconds(10), now: at(5))
        #expect(past.client == at(1))
        #expect(past.watch == nil)
    }

    @Test func aTripQueuedAgainLaterHandsTheSameDeadlineToAsyncHTTPClientOnceItIsNear() {
        let scope = scope(deadline: at(30))
        #expect(scope.deadlines(connectTimeout: .seconds(10), now: at(0)).watch == at(30))
        // The pool gave up twice; the third trip starts at 20: its wait may outlast the deadline.
        let third = scope.deadlines(connectTimeout: .seconds(10), now: at(20))
        #expect(third.client == at(30))
        #expect(third.watch == nil)
    }

    @Test func aClientWhoseConnectTimeoutIsUnknownKeepsEveryDeadline() {
        let split = scope(deadline: at(600)).deadlines(connectTimeout: nil, now: at(0))
        #expect(split.client == at(600))
        #expect(split.watch == nil)
    }

    @Test func noDeadlineIsNobodysToEnforce() {
        let split = scope(deadline: nil).deadlines(connectTimeout: .seconds(10), now: at(0))
        #expect(split.client == nil)
        #expect(split.watch == nil)
    }
}
