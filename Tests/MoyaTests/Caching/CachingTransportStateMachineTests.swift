import Foundation
import Testing

@testable import Moya

@Suite("Caching transport state machine")
struct CachingTransportStateMachineTests {
    typealias Machine = CachingTransport.StateMachine

    private struct Handle: TransportHandle {
        func cancel(then stopped: @escaping @Sendable () -> Void) { stopped() }
    }

    @Test func aHitFinishesOnceAndACancelAfterwardsFindsItStopped() {
        var machine = Machine()
        #expect(machine.mayContinue)
        let step1 = machine.finish()
        #expect(step1)
        let step2 = machine.finish()
        #expect(!step2)
        guard case .alreadyStopped = machine.cancel() else {
            Issue.record("a finished run has nothing to cancel")
            return
        }
    }

    @Test func aCancelDuringCacheWorkStopsTheRunAtItsNextStepWithoutCompletion() {
        var machine = Machine()
        guard case .stopAtNextStep = machine.cancel() else {
            Issue.record("expected the run to stop at its next step")
            return
        }
        #expect(!machine.mayContinue)
        let step3 = machine.willSend()
        #expect(!step3)
        let step4 = machine.finish()
        #expect(!step4)
    }

    @Test func aCancelWhileSendingCancelsTheBaseTransport() {
        var machine = Machine()
        let step5 = machine.willSend()
        #expect(step5)
        let step6 = machine.sendReturned(Handle())
        #expect(!step6)
        guard case .cancelBase = machine.cancel() else {
            Issue.record("expected the base transport to be cancelled")
            return
        }
        // A completion racing with the cancel is dropped.
        let step7 = machine.networkFinished()
        #expect(!step7)
        let step8 = machine.finish()
        #expect(!step8)
    }

    @Test func aCancelBeforeTheBaseHandleArrivesCancelsItOnArrival() {
        var machine = Machine()
        let step9 = machine.willSend()
        #expect(step9)
        guard case .stopAtNextStep = machine.cancel() else {
            Issue.record("expected the cancel to wait for the handle")
            return
        }
        let step10 = machine.sendReturned(Handle())
        #expect(step10)
        let step11 = machine.finish()
        #expect(!step11)
    }

    @Test func aBaseTransportAnsweringInsideSendLeavesNothingToCancel() {
        var machine = Machine()
        let step12 = machine.willSend()
        #expect(step12)
        let step13 = machine.networkFinished()
        #expect(step13)
        let step14 = machine.sendReturned(Handle())
        #expect(!step14)
        #expect(machine.mayContinue)
        let step15 = machine.finish()
        #expect(step15)
    }

    @Test func theNetworkAnswerThenStoringThenTheEnd() {
        var machine = Machine()
        let step16 = machine.willSend()
        #expect(step16)
        let step17 = machine.sendReturned(Handle())
        #expect(!step17)
        let step18 = machine.networkFinished()
        #expect(step18)
        #expect(machine.mayContinue)
        let step19 = machine.finish()
        #expect(step19)
    }
}
