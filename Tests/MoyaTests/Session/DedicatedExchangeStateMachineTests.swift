import Foundation
import NIOCore
import NIOHTTP1
import Testing

@testable import Moya

/// How a forwarded exchange hands its response to the receiver, without a connection.
@Suite("Forwarded exchange state machine")
struct DedicatedExchangeStateMachineTests {
    typealias Machine = DedicatedExchangeStateMachine

    private struct Failure: Error, Equatable {
        let name: String
    }

    private let head = HTTPResponseHead(version: .http1_1, status: .ok)

    /// A short name for an action, to compare sequences of them.
    private func name(_ action: Machine.Action) -> String {
        switch action {
        case .none: return "none"
        case .deliverHead(let head): return "head \(head.status.code)"
        case .deliverPart(let buffer): return "part \(String(buffer: buffer))"
        case .read: return "read"
        case .succeed: return "succeed"
        case .fail(let error): return "fail \((error as? Failure)?.name ?? "\(error)")"
        }
    }

    @Test func partsReadWhileTheReceiverIsBusyAreHandedOverInOrderBeforeTheConnectionsFailure() {
        var machine = Machine()
        var actions = [name(machine.receivedHead(head))]
        actions.append(name(machine.receivedPart(ByteBuffer(string: "a"))))
        actions.append(name(machine.receivedPart(ByteBuffer(string: "b"))))
        actions.append(name(machine.connectionFailed(Failure(name: "closed"))))
        actions.append(name(machine.deliveryCompleted()))
        actions.append(name(machine.deliveryCompleted()))
        actions.append(name(machine.deliveryCompleted()))
        actions.append(name(machine.deliveryCompleted()))

        #expect(actions == ["head 200", "none", "none", "none", "part a", "part b", "fail closed", "none"])
    }

    @Test func theResponsesEndWaitsForTheLastPartToBeTakenAndThenSucceedsOnce() {
        var machine = Machine()
        _ = machine.receivedHead(head)
        #expect(name(machine.deliveryCompleted()) == "none")
        #expect(name(machine.receivedPart(ByteBuffer(string: "x"))) == "part x")
        #expect(name(machine.receivedEnd()) == "none")
        #expect(!machine.hasEnded)
        #expect(name(machine.deliveryCompleted()) == "succeed")
        #expect(machine.hasEnded)
        #expect(name(machine.connectionFailed(Failure(name: "closed"))) == "none")
    }

    @Test func aReadAskedForWhileTheReceiverIsBusyIsHeldUntilItIsDone() {
        var machine = Machine()
        #expect(name(machine.readRequested()) == "read")
        _ = machine.receivedHead(head)
        #expect(name(machine.readRequested()) == "none")
        #expect(name(machine.deliveryCompleted()) == "read")
        #expect(name(machine.readRequested()) == "read")
        #expect(name(machine.receivedPart(ByteBuffer(string: "x"))) == "part x")
        #expect(name(machine.deliveryCompleted()) == "none")
    }

    @Test func aStopFromOutsideEndsTheExchangeAtOnceDroppingWhatWaits() {
        var machine = Machine()
        _ = machine.receivedHead(head)
        _ = machine.receivedPart(ByteBuffer(string: "queued"))
        #expect(name(machine.stopped(Failure(name: "cancelled"))) == "fail cancelled")
        #expect(name(machine.deliveryCompleted()) == "none")
        #expect(name(machine.stopped(Failure(name: "again"))) == "none")
        #expect(name(machine.receivedEnd()) == "none")
    }

    @Test func aFailureBeforeTheHeadEndsTheExchangeAtOnce() {
        var machine = Machine()
        #expect(name(machine.connectionFailed(Failure(name: "refused"))) == "fail refused")
        #expect(machine.hasEnded)
        #expect(name(machine.receivedHead(head)) == "none")
    }

    @Test func anInformationalHeadAndItsEndAreSkipped() {
        var machine = Machine()
        #expect(name(machine.receivedHead(HTTPResponseHead(version: .http1_1, status: .continue))) == "none")
        #expect(name(machine.receivedEnd()) == "none")
        #expect(name(machine.receivedHead(head)) == "head 200")
    }

    @Test func anEndWithoutAHeadFails() {
        var machine = Machine()
        guard case .fail(let error) = machine.receivedEnd() else {
            Issue.record("expected a failure")
            return
        }
        #expect((error as NSError).code == NSURLErrorBadServerResponse)
    }
}
