import NIOCore
import NIOHTTP1

/// The response side of one forwarded exchange (`DedicatedExchange`), free of IO: what to hand the receiver next,
/// when to read from the connection again, and how the exchange ends.
///
/// The receiver paces the body: while a part it was handed is pending (its future not yet
/// complete), parts that arrive wait here, and the connection is not read. What this type
/// exists for is the end of a body cut short: the parts already read from the connection
/// are handed over, in order, before the failure, so a reader or a download keeps every
/// byte that arrived. Only a stop from outside (a cancel, a timeout, the receiver failing)
/// drops them, because nobody wants them then.
struct DedicatedExchangeStateMachine {
    /// What the exchange does next.
    enum Action {
        case none
        /// Hand the head to the receiver, then report `deliveryCompleted`.
        case deliverHead(HTTPResponseHead)
        /// Hand a body part to the receiver, then report `deliveryCompleted`.
        case deliverPart(ByteBuffer)
        /// Read from the connection: a read held back while the receiver was busy.
        case read
        /// The response is complete: ask the receiver for the outcome, close the connection.
        case succeed
        /// The exchange failed: tell the receiver, close the connection.
        case fail(Error)
    }

    private struct Receiving {
        /// Whether the receiver has a head or part whose future is pending.
        var delivering: Bool
        /// Parts read while the receiver was busy, oldest first.
        var queued = CircularBuffer<ByteBuffer>()
        /// How the response ended (its end, or the connection's failure), waiting for the
        /// queued parts to be handed over first.
        var end: Result<Void, Error>?
        /// Whether the connection asked to read while the receiver was busy.
        var readHeld = false
    }

    private enum State {
        case awaitingHead
        /// A `1xx` head arrived; its end is skipped, and the real head is still to come.
        case informational
        case receiving(Receiving)
        case done
    }

    private var state = State.awaitingHead

    /// Whether the exchange is over: a connection made after it is closed unused.
    var hasEnded: Bool {
        if case .done = state { return true }
        return false
    }

    /// A response head arrived.
    mutating func receivedHead(_ head: HTTPResponseHead) -> Action {
        guard case .awaitingHead = state else { return .none }
        if head.status.code >= 100, head.status.code < 200, head.status != .switchingProtocols {
            state = .informational
            return .none
        }
        state = .receiving(Receiving(delivering: true))
        return .deliverHead(head)
    }

    /// A part of the body arrived.
    mutating func receivedPart(_ buffer: ByteBuffer) -> Action {
        guard case .receiving(var receiving) = state, receiving.end == nil else { return .none }
        if receiving.delivering {
            receiving.queued.append(buffer)
            state = .receiving(receiving)
            return .none
        }
        receiving.delivering = true
        state = .receiving(receiving)
        return .deliverPart(buffer)
    }

    /// The response ended.
    mutating func receivedEnd() -> Action {
        switch state {
        case .informational:
            state = .awaitingHead
            return .none
        case .awaitingHead:
            state = .done
            return .fail(TransferError.noResponseHead)
        case .receiving(var receiving):
            guard receiving.end == nil else { return .none }
            receiving.end = .success(())
            return settle(receiving)
        case .done:
            return .none
        }
    }

    /// The receiver is done with what it was handed last.
    mutating func deliveryCompleted() -> Action {
        guard case .receiving(var receiving) = state else { return .none }
        receiving.delivering = false
        if let next = receiving.queued.popFirst() {
            receiving.delivering = true
            state = .receiving(receiving)
            return .deliverPart(next)
        }
        return settle(receiving)
    }

    /// The connection failed or closed: the parts already read are still handed over.
    mutating func connectionFailed(_ error: Error) -> Action {
        switch state {
        case .awaitingHead, .informational:
            state = .done
            return .fail(error)
        case .receiving(var receiving):
            guard receiving.end == nil else { return .none }
            receiving.end = .failure(error)
            return settle(receiving)
        case .done:
            return .none
        }
    }

    /// The exchange is stopped from outside (a cancel, a timeout, the receiver failing):
    /// it ends now, whatever waits.
    mutating func stopped(_ error: Error) -> Action {
        if case .done = state { return .none }
        state = .done
        return .fail(error)
    }

    /// The connection asks to read more: allowed unless the receiver is busy.
    mutating func readRequested() -> Action {
        guard case .receiving(var receiving) = state, receiving.delivering else { return .read }
        receiving.readHeld = true
        state = .receiving(receiving)
        return .none
    }

    /// The next step of a response whose receiver is free: its end once it ended, else a
    /// read held back.
    private mutating func settle(_ receiving: Receiving) -> Action {
        var receiving = receiving
        guard !receiving.delivering else {
            state = .receiving(receiving)
            return .none
        }
        switch receiving.end {
        case .some(.success):
            state = .done
            return .succeed
        case .some(.failure(let error)):
            state = .done
            return .fail(error)
        case .none:
            let read = receiving.readHeld
            receiving.readHeld = false
            state = .receiving(receiving)
            return read ? .read : .none
        }
    }
}
