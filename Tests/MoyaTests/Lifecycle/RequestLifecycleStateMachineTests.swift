import Foundation
import Testing

@testable import Moya

@Suite("Request lifecycle state machine")
struct RequestLifecycleStateMachineTests {
    typealias Machine = RequestLifecycle.StateMachine

    private final class Handle: TransportHandle {
        func cancel(then stopped: @escaping @Sendable () -> Void) {
            stopped()
        }
    }

    private func add(_ machine: inout Machine) -> Int? {
        machine.addSubscriber(callback: .inline, progress: nil, completion: { _ in })
    }

    @Test func finishDeliversToEverySubscriberOnce() throws {
        var machine = Machine()
        _ = try #require(add(&machine))
        _ = try #require(add(&machine))
        let began = machine.beginSending()
        #expect(began)
        #expect(machine.finish().count == 2)
        #expect(machine.finish().isEmpty)
    }

    @Test func subscribersCannotJoinAFinishedRequest() {
        var machine = Machine()
        _ = add(&machine)
        _ = machine.finish()
        #expect(add(&machine) == nil)
    }

    @Test func requestClosureAnsweringTwiceSendsOnce() {
        var machine = Machine()
        _ = add(&machine)
        let began = machine.beginSending()
        #expect(began)
        let beganAgain = machine.beginSending()
        #expect(!beganAgain)
    }

    @Test func cancellingTheOnlySubscriberEndsTheRequestAndCancelsTheTransport() throws {
        var machine = Machine()
        let id = try #require(add(&machine))
        let began = machine.beginSending()
        #expect(began)
        #expect(machine.transportStarted(Handle()) == nil)
        guard case .cancelRequest(let subscriber, let handle) = machine.cancel(subscriber: id) else {
            Issue.record("expected the request to be cancelled")
            return
        }
        #expect(subscriber.id == id)
        #expect(handle != nil)
        #expect(machine.isFinished)
        #expect(machine.finish().isEmpty)
    }

    @Test func cancellingOneOfTwoSubscribersDetachesItOnly() throws {
        var machine = Machine()
        let first = try #require(add(&machine))
        _ = try #require(add(&machine))
        guard case .detach(let subscriber) = machine.cancel(subscriber: first) else {
            Issue.record("expected a detach")
            return
        }
        #expect(subscriber.id == first)
        #expect(!machine.isFinished)
        #expect(machine.finish().count == 1)
    }

    @Test func cancellingTwiceDoesNothingTheSecondTime() throws {
        var machine = Machine()
        let id = try #require(add(&machine))
        _ = machine.cancel(subscriber: id)
        guard case .none = machine.cancel(subscriber: id) else {
            Issue.record("a second cancel must do nothing")
            return
        }
    }

    @Test func cancelBeforeTheRequestIsReadyStopsTheSend() throws {
        var machine = Machine()
        let id = try #require(add(&machine))
        _ = machine.cancel(subscriber: id)
        let beganAgain = machine.beginSending()
        #expect(!beganAgain)
    }

    @Test func transportStartingAfterACancelIsCancelledAtOnce() throws {
        var machine = Machine()
        let id = try #require(add(&machine))
        let began = machine.beginSending()
        #expect(began)
        _ = machine.cancel(subscriber: id)
        #expect(machine.transportStarted(Handle()) != nil)
    }

    @Test func progressIsDroppedAfterFinish() throws {
        var machine = Machine()
        _ = machine.addSubscriber(callback: .inline, progress: { _ in }, completion: { _ in })
        #expect(machine.progress(Progress(totalUnitCount: 1)).count == 1)
        _ = machine.finish()
        #expect(machine.progress(Progress(totalUnitCount: 1)).isEmpty)
    }
}
