#if ReactiveMoya
import Foundation
import Moya
// ReactiveSwift has no Sendable annotations; the recorder's state is behind a lock.
@preconcurrency import ReactiveSwift
import ReactiveTestSupport

/// Records a producer's events, with the queue each arrived on, and lets a test wait for the
/// end.
///
/// - Note: `@unchecked Sendable` because every stored `var` is read and written under `lock`;
///   values are only stored and handed back to the test.
final class EventRecorder<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [Signal<Value, MoyaError>.Event] = []
    private var queues: [String?] = []
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var disposable: Disposable?

    /// Every event, in order.
    var events: [Signal<Value, MoyaError>.Event] { lock.withLock { recorded } }

    /// The values received.
    var values: [Value] { events.compactMap(\.value) }

    /// The error that ended the producer, if one did.
    var error: MoyaError? { events.lazy.compactMap(\.error).first }

    /// Whether the producer completed.
    var completed: Bool { events.contains { $0.isCompleted } }

    /// Whether the producer was interrupted.
    var interrupted: Bool {
        events.contains {
            if case .interrupted = $0 { return true }
            return false
        }
    }

    /// The marked queue each event arrived on (see `currentQueueName()`).
    var eventQueues: [String?] { lock.withLock { queues } }

    /// Starts `producer`; events are recorded from then on.
    func start(_ producer: SignalProducer<Value, MoyaError>) {
        let disposable = producer.start { [self] event in
            let ready = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
                recorded.append(event)
                queues.append(currentQueueName())
                guard event.isTerminating else { return [] }
                defer { waiters = [] }
                return waiters
            }
            for continuation in ready { continuation.resume() }
        }
        lock.withLock { self.disposable = disposable }
    }

    /// Disposes of the started producer, which interrupts it.
    func dispose() {
        lock.withLock { disposable }?.dispose()
    }

    /// Waits until the producer completed, failed or was interrupted.
    func waitForEnd() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ended = lock.withLock { () -> Bool in
                if recorded.contains(where: \.isTerminating) { return true }
                waiters.append(continuation)
                return false
            }
            if ended { continuation.resume() }
        }
    }
}

extension SignalProducer where Error == MoyaError {
    /// Starts, waits for the end, and returns what was received.
    func record() async -> EventRecorder<Value> {
        let recorder = startRecording()
        await recorder.waitForEnd()
        return recorder
    }

    /// Starts and returns the recorder at once, without waiting.
    func startRecording() -> EventRecorder<Value> {
        let recorder = EventRecorder<Value>()
        recorder.start(self)
        return recorder
    }
}
#endif
