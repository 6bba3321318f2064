import Foundation
import NIOConcurrencyHelpers

/// Hands a response body from the transport to the one task reading it, chunk by chunk, with
/// back-pressure: a slow reader slows the transfer, and memory stays bounded.
///
/// `StateMachine` holds the rules; this type keeps it behind a lock and resumes whoever waits,
/// outside the lock. `onTerminate` runs once, when the reader is done: it read the end, or left.
final class ChunkChannel: Sendable {
    typealias Machine = StateMachine<CheckedContinuation<Result<Data?, MoyaError>, Never>, @Sendable () -> Void>
    typealias Termination = Machine.Termination

    /// How far the transport may run ahead of the reader: 256 KiB, then it waits until the
    /// reader has brought the buffer down to 64 KiB.
    static let defaultHighWatermark = 256 << 10
    static let defaultLowWatermark = 64 << 10

    private let machine: NIOLockedValueBox<Machine>
    private let onTerminate: @Sendable (Termination) -> Void

    init(
        highWatermark: Int = ChunkChannel.defaultHighWatermark,
        lowWatermark: Int = ChunkChannel.defaultLowWatermark,
        onTerminate: @escaping @Sendable (Termination) -> Void
    ) {
        self.machine = NIOLockedValueBox(Machine(highWatermark: highWatermark, lowWatermark: lowWatermark))
        self.onTerminate = onTerminate
    }

    // MARK: Producer

    /// Hands over a chunk. Returns `true` when the producer may go on at once; `false` when it
    /// must wait for `whenReady`, which is then called exactly once (also when the reader leaves).
    func send(_ chunk: Data, whenReady: @escaping @Sendable () -> Void) -> Bool {
        switch machine.withLockedValue({ $0.send(chunk) }) {
        case .produceMore, .drop:
            return true
        case .deliver(let consumer, let chunk):
            consumer.resume(returning: .success(chunk))
            return true
        case .pause:
            switch machine.withLockedValue({ $0.producerWaits(whenReady) }) {
            case .resumeNow:
                return true
            case .wait:
                return false
            }
        }
    }

    /// The body is complete, or failed.
    func finish(_ ending: Machine.Ending) {
        let action = machine.withLockedValue { $0.finish(ending) }
        if let termination = action.termination {
            onTerminate(termination)
        }
        if let (consumer, error) = action.consumer {
            consumer.resume(returning: error.map { .failure($0) } ?? .success(nil))
        }
    }

    // MARK: Consumer

    /// Whether this is the first iterator, which alone reads the body.
    func makeIterator() -> Bool {
        machine.withLockedValue { $0.makeIterator() }
    }

    /// The next chunk; `nil` at the end. Cancelling the task ends the transfer.
    func next() async throws(MoyaError) -> Data? {
        if _Concurrency.Task.isCancelled {
            consumerLeft()
            throw MoyaError.cancelled
        }
        if case .value(let value) = try step(machine.withLockedValue { $0.next() }) {
            return value
        }
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<Data?, MoyaError>, Never>) in
                let action = machine.withLockedValue { $0.consumerWaits(continuation) }
                do throws(MoyaError) {
                    if case .value(let value) = try step(action) {
                        continuation.resume(returning: .success(value))
                    }
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        } onCancel: {
            consumerLeft()
        }
        return try result.get()
    }

    private enum Step {
        /// A chunk, or `nil` for the end.
        case value(Data?)
        case wait
    }

    /// What a `next()` action gives the reader, releasing a producer that may go on.
    private func step(_ action: Machine.NextAction) throws(MoyaError) -> Step {
        switch action {
        case .chunk(let chunk, let producer):
            producer?()
            return .value(chunk)
        case .end(let error, let termination):
            if let termination {
                onTerminate(termination)
            }
            if let error {
                throw error
            }
            return .value(nil)
        case .wait:
            return .wait
        }
    }

    /// The reader left: its task was cancelled, it broke out of its loop, or it dropped the
    /// iterator.
    func consumerLeft() {
        apply(machine.withLockedValue { $0.consumerLeft() })
    }

    /// The stream value was dropped; if nobody reads it, the transfer ends.
    func sequenceDropped() {
        apply(machine.withLockedValue { $0.sequenceDropped() })
    }

    private func apply(_ action: Machine.LeaveAction) {
        if let termination = action.termination {
            onTerminate(termination)
        }
        action.consumer?.resume(returning: .failure(.cancelled))
        action.producer?()
    }
}
