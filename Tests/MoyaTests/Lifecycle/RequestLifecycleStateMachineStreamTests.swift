import Foundation
import NIOCore
import Testing

@testable import Moya

/// A streamed request in the lifecycle's machine: handed over at the head, reported to plugins
/// once its reader is done, and never for an attempt that was not handed over.
@Suite("Request lifecycle state machine: streams")
struct RequestLifecycleStateMachineStreamTests {
    typealias Machine = RequestLifecycle.StateMachine
    typealias Fixtures = RequestLifecycleStateMachineTests

    private static let head = Response(statusCode: 200, data: Data())

    private func body() -> ResponseChunks {
        ResponseChunks(channel: ChunkChannel { _ in })
    }

    /// Drives a machine with one subscriber to its first `.send` (or `.adapt`, with an interceptor).
    private func announce(_ machine: inout Machine, interceptor: RequestInterceptor? = nil) -> Machine.Action? {
        guard machine.addSubscriber(delivery: .inPlace, progress: nil, completion: { _ in }) != nil,
            case .prepare(_, let step) = machine.built(.success(Fixtures.built)),
            case .announce(_, let announceStep) = machine.prepared(.success(Fixtures.built), step: step)
        else { return nil }
        return machine.announced(interceptor: interceptor, deadline: nil, step: announceStep)
    }

    @Test func aHeadThatPassesIsHandedOverAndPluginsHearOnceWhenTheBodyEnds() throws {
        var machine = Machine(validation: .successCodes)
        guard case .send(_, _, _, _, let sendStep) = try #require(announce(&machine)) else {
            Issue.record("expected a send")
            return
        }
        guard
            case .handOver(let head, _, let subscribers) = machine.sent(
                .success(Self.head),
                body: body(),
                step: sendStep
            )
        else {
            Issue.record("a head that passes must be handed over")
            return
        }
        #expect(head === Self.head)
        #expect(subscribers.count == 1)
        #expect(machine.isFinished)
        let added = machine.addSubscriber(delivery: .inPlace, progress: nil, completion: { _ in })
        #expect(added == nil)

        guard case .report(.success(let reported)) = machine.streamEnded(.producerEnded(.finished), step: sendStep)
        else {
            Issue.record("the end of the body must be reported")
            return
        }
        #expect(reported === Self.head)
        guard case .none = machine.streamEnded(.consumerLeft, step: sendStep) else {
            Issue.record("the end must be reported once")
            return
        }
    }

    @Test func howTheBodyEndedIsWhatPluginsHear() throws {
        for termination: ChunkChannel.Termination in [.consumerLeft, .producerEnded(.failed(.requestMapping("x")))] {
            var machine = Machine()
            guard case .send(_, _, _, _, let sendStep) = try #require(announce(&machine)),
                case .handOver = machine.sent(.success(Self.head), body: body(), step: sendStep),
                case .report(.failure(let error)) = machine.streamEnded(termination, step: sendStep)
            else {
                Issue.record("the failure must be reported")
                continue
            }
            if case .consumerLeft = termination {
                #expect(error.isCancellation)
            } else {
                guard case .requestMapping = error else {
                    Issue.record("expected the transfer's failure, got \(error)")
                    continue
                }
            }
        }
    }

    @Test func aRefusedHeadFailsWithItsStatusAndIsNotHandedOver() throws {
        var machine = Machine(validation: .successCodes)
        guard case .send(_, _, _, _, let sendStep) = try #require(announce(&machine)) else {
            Issue.record("expected a send")
            return
        }
        let refused = Response(statusCode: 503, data: Data("busy".utf8))
        guard case .finish(.failure(let error), _, let notifyPlugins) = machine.sent(.success(refused), step: sendStep)
        else {
            Issue.record("a refused head must fail the request")
            return
        }
        #expect(notifyPlugins)
        #expect(error.response?.data == Data("busy".utf8))
    }

    @Test func theEndOfARetriedAttemptsBodyIsNeverReported() throws {
        var machine = Machine()
        guard
            case .adapt(_, _, _, let adaptStep) = try #require(
                announce(&machine, interceptor: Fixtures.PassingInterceptor())
            ),
            case .send(_, _, _, _, let firstSend) = machine.adapted(.success(Fixtures.adapted), step: adaptStep),
            case .decide(_, _, _, _, let decideStep) = machine.sent(.success(Self.head), body: body(), step: firstSend),
            case .adapt(_, _, 2, let secondAdapt) = machine.decided(.retry, step: decideStep, now: .now()),
            case .send(_, _, _, _, let secondSend) = machine.adapted(.success(Fixtures.adapted), step: secondAdapt)
        else {
            Issue.record("expected a second attempt")
            return
        }
        // The first attempt's body was dropped: its end arrives, and must not reach plugins.
        guard case .none = machine.streamEnded(.consumerLeft, step: firstSend) else {
            Issue.record("a retried attempt must not be reported")
            return
        }
        guard
            case .decide(_, _, _, _, let secondDecide) = machine.sent(
                .success(Self.head),
                body: body(),
                step: secondSend
            ),
            case .handOver = machine.decided(.doNotRetry, step: secondDecide, now: .now())
        else {
            Issue.record("the second attempt must be handed over")
            return
        }
        guard case .none = machine.streamEnded(.consumerLeft, step: firstSend),
            case .report = machine.streamEnded(.producerEnded(.finished), step: secondSend)
        else {
            Issue.record("only the handed-over attempt's end must be reported")
            return
        }
    }

    @Test func validationAppliesToEveryResultTheRequestFinishesWith() throws {
        var machine = Machine(validation: .successCodes)
        guard case .send(_, _, _, _, let sendStep) = try #require(announce(&machine)) else {
            Issue.record("expected a send")
            return
        }
        let failed = Response(statusCode: 500, data: Data())
        guard
            case .finish(.failure(.underlying(let underlying, let response)), _, _) = machine.sent(
                .success(failed),
                step: sendStep
            )
        else {
            Issue.record("a refused status must become Moya's status-code error")
            return
        }
        #expect(response === failed)
        guard case .statusCode? = underlying as? MoyaError else {
            Issue.record("expected MoyaError.statusCode inside, got \(underlying)")
            return
        }
    }
}
