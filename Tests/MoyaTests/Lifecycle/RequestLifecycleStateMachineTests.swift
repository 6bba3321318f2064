import Foundation
import NIOCore
import Testing

@testable import Moya

@Suite("Request lifecycle state machine")
struct RequestLifecycleStateMachineTests {
    typealias Machine = RequestLifecycle.StateMachine

    struct PassingInterceptor: RequestInterceptor {}

    static let built = URLRequest(url: URL(string: "https://example.com/built")!)
    static let adapted = URLRequest(url: URL(string: "https://example.com/adapted")!)
    static let ok = Result<Response, MoyaError>.success(Response(statusCode: 200, data: Data()))

    private func add(_ machine: inout Machine) -> Int? {
        machine.addSubscriber(delivery: .inPlace, progress: nil, completion: { _ in })
    }

    /// Drives a machine with one subscriber up to its first `.send` or `.adapt`; returns that
    /// action's step.
    private func announce(
        _ machine: inout Machine,
        interceptor: RequestInterceptor? = nil,
        deadline: NIODeadline? = nil
    )
        -> (action: Machine.Action, id: Int)?
    {
        guard let id = add(&machine), case .prepare(_, let step) = machine.built(.success(Self.built)),
            case .announce(_, let announceStep) = machine.prepared(.success(Self.built), step: step)
        else { return nil }
        return (machine.announced(interceptor: interceptor, deadline: deadline, step: announceStep), id)
    }

    private func sendStep(of action: Machine.Action) -> Int? {
        guard case .send(_, _, _, _, let step) = action else { return nil }
        return step
    }

    @Test func finishDeliversToEverySubscriberOnce() throws {
        var machine = Machine()
        _ = try #require(add(&machine))
        let sent = try #require(announce(&machine))
        let step = try #require(sendStep(of: sent.action))
        guard case .finish(_, let subscribers, let notifyPlugins) = machine.sent(Self.ok, step: step) else {
            Issue.record("the answer must finish the request")
            return
        }
        #expect(subscribers.count == 2)
        #expect(notifyPlugins)
        guard case .none = machine.sent(Self.ok, step: step) else {
            Issue.record("a second answer must be ignored")
            return
        }
    }

    @Test func subscribersCannotJoinAFinishedRequest() {
        var machine = Machine()
        _ = add(&machine)
        _ = machine.finish(Self.ok)
        #expect(add(&machine) == nil)
    }

    @Test func requestClosureAnsweringTwiceSendsOnce() {
        var machine = Machine()
        _ = add(&machine)
        guard case .prepare = machine.built(.success(Self.built)) else {
            Issue.record("the first answer must be prepared")
            return
        }
        guard case .none = machine.built(.success(Self.built)) else {
            Issue.record("the second answer must be ignored")
            return
        }
    }

    @Test func aRequestThatCouldNotBeBuiltFinishesWithoutPlugins() {
        var machine = Machine()
        _ = add(&machine)
        guard
            case .finish(.failure(.requestMapping), _, let notifyPlugins) = machine.built(
                .failure(.requestMapping("x"))
            )
        else {
            Issue.record("expected the build error")
            return
        }
        #expect(!notifyPlugins)
    }

    @Test func aPluginFailureWhilePreparingFinishesWithoutPlugins() throws {
        var machine = Machine()
        _ = add(&machine)
        guard case .prepare(_, let step) = machine.built(.success(Self.built)) else {
            Issue.record("expected prepare")
            return
        }
        let action = machine.prepared(.failure(.requestMapping("plugin")), step: step)
        guard case .finish(.failure, _, let notifyPlugins) = action else {
            Issue.record("expected the plugin's error")
            return
        }
        #expect(!notifyPlugins)
    }

    @Test func cancellingTheOnlySubscriberCancelsTheAttemptAndDeliversOnceTheTransportAnswers() throws {
        var machine = Machine()
        let (action, id) = try #require(announce(&machine))
        guard case .send(_, _, let sent, _, let step) = action else {
            Issue.record("expected a send")
            return
        }
        guard case .cancelTransport(let cancelled) = machine.cancel(subscriber: id) else {
            Issue.record("expected the transport to be cancelled")
            return
        }
        #expect(cancelled === sent, "the attempt's own cancellation is cancelled")
        #expect(machine.isFinished, "no caller joins a request being cancelled")
        // The transport wound down and answered (its outcome won the race, say): the cancel wins.
        guard case .finish(.failure(let error), let subscribers, let notifyPlugins) = machine.sent(Self.ok, step: step)
        else {
            Issue.record("the cancel must be delivered when the transport answers")
            return
        }
        #expect(error.isCancellation)
        #expect(subscribers.map { $0.id } == [id])
        #expect(notifyPlugins)
        guard case .none = machine.sent(Self.ok, step: step) else {
            Issue.record("a second answer must be ignored")
            return
        }
    }

    @Test func eachAttemptGetsACancellationOfItsOwn() throws {
        var machine = Machine()
        _ = add(&machine)
        guard case .prepare(_, let prepareStep) = machine.built(.success(Self.built)),
            case .announce(_, let announceStep) = machine.prepared(.success(Self.built), step: prepareStep),
            case .adapt(_, _, _, let adaptStep) = machine.announced(
                interceptor: PassingInterceptor(),
                deadline: nil,
                step: announceStep
            ),
            case .send(_, _, let first, _, let sendStep) = machine.adapted(.success(Self.adapted), step: adaptStep),
            case .decide(_, _, _, _, let decideStep) = machine.sent(Self.ok, step: sendStep),
            case .adapt(_, _, _, let secondAdapt) = machine.decided(.retry, step: decideStep, now: .now()),
            case .send(_, _, let second, _, _) = machine.adapted(.success(Self.adapted), step: secondAdapt)
        else {
            Issue.record("expected two attempts")
            return
        }
        #expect(first !== second, "cancelling a finished attempt's value must not touch the next one")
        #expect(!first.isCancelled && !second.isCancelled)
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
        guard case .finish(_, let subscribers, _) = machine.finish(Self.ok) else {
            Issue.record("expected the remaining subscriber")
            return
        }
        #expect(subscribers.count == 1)
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

    @Test func cancelBeforeTheRequestIsBuiltStopsTheSend() throws {
        var machine = Machine()
        let id = try #require(add(&machine))
        guard case .cancelRequest(_, nil, let notifyPlugins) = machine.cancel(subscriber: id) else {
            Issue.record("expected the cancel to be delivered at once")
            return
        }
        #expect(!notifyPlugins)
        guard case .none = machine.built(.success(Self.built)) else {
            Issue.record("a request built after the cancel must not go on")
            return
        }
    }

    @Test func progressIsDroppedAfterFinish() throws {
        var machine = Machine()
        _ = machine.addSubscriber(delivery: .inPlace, progress: { _ in }, completion: { _ in })
        let before = machine.progress(Progress(totalUnitCount: 1))
        #expect(before.count == 1)
        _ = machine.finish(Self.ok)
        let after = machine.progress(Progress(totalUnitCount: 1))
        #expect(after.isEmpty)
    }
}
