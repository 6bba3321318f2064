import Foundation
import Moya
import Testing

@testable import CombineMoya

#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif

/// The subscription's rules, without threads or locks.
@Suite("Request subscription state machine")
struct SubscriptionStateMachineTests {
    typealias Machine = RequestSubscription<AnySubscriber<Int, MoyaError>>.StateMachine

    /// A machine whose hand-over has ended.
    private func handedOver() -> Machine {
        var machine = Machine()
        let delivers = machine.handOverEnded()
        #expect(!delivers)
        return machine
    }

    /// What the thread holding the delivery role would send, until `.idle`.
    private func drain(_ machine: inout Machine) -> [String] {
        var steps: [String] = []
        while true {
            switch machine.nextStep() {
            case .idle: return steps
            case .value(let value): steps.append("value \(value)")
            case .completion(nil): steps.append("finished")
            case .completion(.some): steps.append("failed")
            }
        }
    }

    @Test func nothingIsDeliveredDuringTheHandOverAndWhatArrivedGoesAfterIt() {
        var machine = Machine()
        let demand = machine.request(.max(1))
        let value = machine.receive(1, isFinal: true)
        let end = machine.receiveEnd(nil)
        let afterHandOver = machine.handOverEnded()
        #expect(demand == .init(start: true, deliver: false))
        #expect(!value && !end)
        #expect(afterHandOver)
        #expect(drain(&machine) == ["value 1", "finished"])
    }

    @Test func onlyTheFirstDemandStartsTheRequest() {
        var machine = handedOver()
        let none = machine.request(.none)
        let first = machine.request(.max(1))
        let second = machine.request(.max(1))
        #expect(none == .init())
        #expect(first.start && !second.start)
    }

    @Test func aValueWaitsForDemandAndANewerOneReplacesItButNeverAFinalOne() {
        var machine = handedOver()
        let delivered = [
            machine.receive(1, isFinal: false), machine.receive(2, isFinal: true), machine.receive(3, isFinal: false),
        ]
        let demand = machine.request(.max(1))
        #expect(delivered == [false, false, false])
        #expect(demand.deliver)
        #expect(drain(&machine) == ["value 2"])
    }

    @Test func finishedWaitsForTheValueButAFailureDropsItAndNeedsNoDemand() {
        var finishing = handedOver()
        _ = finishing.receive(1, isFinal: true)
        let finished = finishing.receiveEnd(nil)
        let demand = finishing.request(.max(1))
        #expect(!finished && demand.deliver)
        #expect(drain(&finishing) == ["value 1", "finished"])

        var failing = handedOver()
        _ = failing.receive(1, isFinal: true)
        let failed = failing.receiveEnd(.requestMapping("x"))
        #expect(failed)
        #expect(drain(&failing) == ["failed"])
    }

    @Test func onlyTheFirstEndCountsAndNothingFollowsTheCompletion() {
        var machine = handedOver()
        let first = machine.receiveEnd(nil)
        let second = machine.receiveEnd(.requestMapping("x"))
        #expect(first && !second)
        #expect(drain(&machine) == ["finished"])
        let late = machine.receive(1, isFinal: true)
        let demand = machine.request(.max(1))
        #expect(!late && demand == .init())
        #expect(drain(&machine).isEmpty)
    }

    @Test func oneThreadAtATimeHoldsTheDeliveryRole() {
        var machine = handedOver()
        _ = machine.request(.max(2))
        let first = machine.receive(1, isFinal: false)
        // The role is held until `.idle` gives it up: another event is only recorded.
        let second = machine.receive(2, isFinal: true)
        #expect(first && !second)
        #expect(drain(&machine) == ["value 2"])
        let end = machine.receiveEnd(nil)
        #expect(end)
    }

    @Test func cancelCancelsARunningRequestOnlyAndSilencesTheRest() {
        var notStarted = handedOver()
        let cancelsNothing = notStarted.cancel()
        #expect(!cancelsNothing)

        var running = handedOver()
        _ = running.request(.max(1))
        let cancelsRequest = running.cancel()
        let cancelsAgain = running.cancel()
        let late = running.receive(1, isFinal: true)
        #expect(cancelsRequest && !cancelsAgain && !late)
        #expect(drain(&running).isEmpty)

        var ended = handedOver()
        _ = ended.request(.max(1))
        _ = ended.receiveEnd(.requestMapping("x"))
        let cancelsEnded = ended.cancel()
        #expect(!cancelsEnded)
    }

    @Test func demandReturnedByTheSubscriberLetsTheNextValueGo() {
        var machine = handedOver()
        _ = machine.request(.max(1))
        _ = machine.receive(1, isFinal: false)
        let step = machine.nextStep()
        #expect(step.isValue)
        machine.addDemand(.max(1))
        let next = machine.receive(2, isFinal: true)
        #expect(!next)
        #expect(drain(&machine) == ["value 2"])
    }
}

extension RequestSubscription.StateMachine.Step {
    fileprivate var isValue: Bool {
        if case .value = self { return true }
        return false
    }
}
