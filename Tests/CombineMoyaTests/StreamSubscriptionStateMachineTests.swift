import Testing

@testable import CombineMoya

#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif

/// The stream subscription's rules alone: it starts on demand, only once the subscriber holds
/// the subscription.
@Suite("Stream subscription: state machine")
struct StreamSubscriptionStateMachineTests {
    private typealias Machine = StreamSubscription<Int>.StateMachine<String>

    @Test func demandAskedWhileTheSubscriptionIsHandedOverStartsTheStreamOnlyAfterwards() {
        var machine = Machine()
        guard case .none = machine.request(.max(1)) else {
            Issue.record("nothing may start before receive(subscription:) returned")
            return
        }
        #expect(machine.emit() == .stop)
        guard case .start = machine.handedOver() else {
            Issue.record("the demand asked meanwhile starts the stream")
            return
        }
        #expect(machine.emit() == .send)
        #expect(machine.emit() == .wait)
    }

    @Test func withoutDemandTheHandOverStartsNothingAndTheFirstDemandDoes() {
        var machine = Machine()
        guard case .none = machine.handedOver() else {
            Issue.record("no demand, no start")
            return
        }
        guard case .start = machine.request(.max(2)) else {
            Issue.record("the first demand starts the stream")
            return
        }
        #expect(machine.emit() == .send)
        #expect(machine.emit() == .send)
        #expect(machine.emit() == .wait)
    }

    @Test func aSubscriptionCancelledWhileHandedOverEndsOnce() {
        var machine = Machine()
        #expect(machine.finish().ended)
        #expect(!machine.finish().ended)
        guard case .none = machine.handedOver() else {
            Issue.record("a cancelled subscription never starts")
            return
        }
    }
}
