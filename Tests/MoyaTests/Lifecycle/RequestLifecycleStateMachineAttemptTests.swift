import Foundation
import NIOCore
import Testing

@testable import Moya

/// The machine's attempts: adapt, send, decide, wait, again; and what a cancel stops in each.
@Suite("Request lifecycle state machine: attempts")
struct RequestLifecycleStateMachineAttemptTests {
    typealias Machine = RequestLifecycle.StateMachine
    typealias Fixtures = RequestLifecycleStateMachineTests

    /// A machine with one subscriber and an interceptor, at its first `.adapt`.
    private func adapting(
        _ machine: inout Machine,
        deadline: NIODeadline? = nil
    ) -> (id: Int, step: Int)? {
        guard let id = machine.addSubscriber(delivery: .inPlace, progress: nil, completion: { _ in }),
            case .prepare(_, let prepareStep) = machine.built(.success(Fixtures.built)),
            case .announce(_, let announceStep) = machine.prepared(.success(Fixtures.built), step: prepareStep),
            case .adapt(_, _, 1, let step) = machine.announced(
                interceptor: Fixtures.PassingInterceptor(),
                deadline: deadline,
                step: announceStep
            )
        else { return nil }
        return (id, step)
    }

    /// Adapts and sends the current attempt; returns the step of its `.decide`.
    private func sendAndAnswer(_ machine: inout Machine, adaptStep: Int) -> Int? {
        guard
            case .send(Fixtures.adapted, _, _, _, let sendStep) = machine.adapted(
                .success(Fixtures.adapted),
                step: adaptStep
            ),
            case .decide(Fixtures.adapted, _, _, _, let decideStep) = machine.sent(Fixtures.ok, step: sendStep)
        else { return nil }
        return decideStep
    }

    @Test func everyAttemptIsAdaptedFromThePreparedRequestThenDecided() throws {
        var machine = Machine()
        let (_, adaptStep) = try #require(adapting(&machine))
        let decideStep = try #require(sendAndAnswer(&machine, adaptStep: adaptStep))
        guard case .adapt(Fixtures.built, _, 2, let nextStep) = machine.decided(.retry, step: decideStep, now: .now())
        else {
            Issue.record("a retry must adapt the prepared request afresh, as attempt 2")
            return
        }
        let secondDecision = try #require(sendAndAnswer(&machine, adaptStep: nextStep))
        guard
            case .finish(.success, let subscribers, true) = machine.decided(
                .doNotRetry,
                step: secondDecision,
                now: .now()
            )
        else {
            Issue.record("the last outcome must be delivered")
            return
        }
        #expect(subscribers.count == 1)
    }

    @Test func aRetryWithADelayWaitsBeforeTheNextAttempt() throws {
        var machine = Machine()
        let (_, adaptStep) = try #require(adapting(&machine))
        let decideStep = try #require(sendAndAnswer(&machine, adaptStep: adaptStep))
        guard case .wait(2.5, let waitStep) = machine.decided(.retryWithDelay(2.5), step: decideStep, now: .now())
        else {
            Issue.record("expected a wait")
            return
        }
        guard case .adapt(_, _, 2, _) = machine.waited(step: waitStep) else {
            Issue.record("the wait must lead to attempt 2")
            return
        }
    }

    @Test func aRetrierErrorReplacesTheOutcome() throws {
        var machine = Machine()
        let (_, adaptStep) = try #require(adapting(&machine))
        let decideStep = try #require(sendAndAnswer(&machine, adaptStep: adaptStep))
        let action = machine.decided(.doNotRetryWithError(.requestMapping("given up")), step: decideStep, now: .now())
        guard case .finish(.failure(.requestMapping("given up")), _, true) = action else {
            Issue.record("expected the retrier's error")
            return
        }
    }

    @Test func noAttemptStartsAfterTheWholeRequestDeadline() throws {
        var machine = Machine()
        let deadline = NIODeadline.now() + .seconds(5)
        let (_, adaptStep) = try #require(adapting(&machine, deadline: deadline))
        let decideStep = try #require(sendAndAnswer(&machine, adaptStep: adaptStep))
        guard case .finish(.success, _, _) = machine.decided(.retry, step: decideStep, now: deadline + .seconds(1))
        else {
            Issue.record("a retry past the deadline must deliver the last outcome")
            return
        }
    }

    @Test func anAdapterFailureFinishesTheRequestWithPlugins() throws {
        var machine = Machine()
        let (_, adaptStep) = try #require(adapting(&machine))
        let action = machine.adapted(.failure(.requestMapping("adapter")), step: adaptStep)
        guard case .finish(.failure(.requestMapping("adapter")), _, true) = action else {
            Issue.record("expected the adapter's error, after willSend")
            return
        }
    }

    @Test func aCancelWhileAdaptingCancelsTheAdaptersTaskAndDeliversAtOnce() throws {
        var machine = Machine()
        let (id, adaptStep) = try #require(adapting(&machine))
        let work = Machine.Work {}
        let kept = !machine.workStarted(work, step: adaptStep)
        #expect(kept)
        guard case .cancelRequest(_, .some, true) = machine.cancel(subscriber: id) else {
            Issue.record("the adapter's task must be cancelled and the cancel delivered")
            return
        }
        guard case .none = machine.adapted(.success(Fixtures.adapted), step: adaptStep) else {
            Issue.record("the adapter's late answer must be ignored")
            return
        }
    }

    @Test func aTaskStoredAfterACancelIsCancelledAtOnce() throws {
        var machine = Machine()
        let (id, adaptStep) = try #require(adapting(&machine))
        guard case .cancelRequest(_, nil, _) = machine.cancel(subscriber: id) else {
            Issue.record("expected the cancel with no task yet")
            return
        }
        let cancelledAtOnce = machine.workStarted(Machine.Work {}, step: adaptStep)
        #expect(cancelledAtOnce)
    }

    @Test func aCancelWhileWaitingToRetryStopsTheWaitAndNoAttemptFollows() throws {
        var machine = Machine()
        let (id, adaptStep) = try #require(adapting(&machine))
        let decideStep = try #require(sendAndAnswer(&machine, adaptStep: adaptStep))
        guard case .wait(_, let waitStep) = machine.decided(.retryWithDelay(60), step: decideStep, now: .now()) else {
            Issue.record("expected a wait")
            return
        }
        let kept = !machine.workStarted(Machine.Work {}, step: waitStep)
        #expect(kept)
        guard case .cancelRequest(_, .some, _) = machine.cancel(subscriber: id) else {
            Issue.record("the wait must be cancelled")
            return
        }
        guard case .none = machine.waited(step: waitStep) else {
            Issue.record("no attempt may start after the cancel")
            return
        }
    }

    @Test func aDecisionArrivingAfterACancelStartsNoAttempt() throws {
        var machine = Machine()
        let (id, adaptStep) = try #require(adapting(&machine))
        let decideStep = try #require(sendAndAnswer(&machine, adaptStep: adaptStep))
        _ = machine.cancel(subscriber: id)
        guard case .none = machine.decided(.retry, step: decideStep, now: .now()) else {
            Issue.record("a retry decided after the cancel must be ignored")
            return
        }
    }

    @Test func anOutcomeOfAnEarlierStepIsIgnored() throws {
        var machine = Machine()
        let (_, adaptStep) = try #require(adapting(&machine))
        let decideStep = try #require(sendAndAnswer(&machine, adaptStep: adaptStep))
        guard case .adapt(_, _, 2, _) = machine.decided(.retry, step: decideStep, now: .now()) else {
            Issue.record("expected attempt 2")
            return
        }
        guard case .none = machine.adapted(.success(Fixtures.adapted), step: adaptStep) else {
            Issue.record("attempt 1's adapter answering again must be ignored")
            return
        }
    }
}
