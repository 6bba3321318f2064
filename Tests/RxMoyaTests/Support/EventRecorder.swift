#if RxMoya
import Foundation
// RxSwift has no Sendable annotations; the recorder's state is behind a lock.
@preconcurrency import RxSwift

/// Records an observable's events, with the queue each arrived on, and lets a test wait for
/// the end.
///
/// - Note: `@unchecked Sendable` because every stored `var` is read and written under `lock`;
///   elements are only stored and handed back to the test.
final class EventRecorder<Element>: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [Event<Element>] = []
    private var queues: [String?] = []
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var disposable: Disposable?

    /// Every event, in order.
    var events: [Event<Element>] { lock.withLock { recorded } }

    /// The elements received.
    var values: [Element] { events.compactMap(\.element) }

    /// The error that ended the sequence, if one did.
    var error: Swift.Error? { events.lazy.compactMap(\.error).first }

    /// Whether the sequence completed.
    var completed: Bool { events.contains { $0.isCompleted } }

    /// The marked queue each event arrived on (see `currentQueueName()`).
    var eventQueues: [String?] { lock.withLock { queues } }

    /// Subscribes to `observable`; events are recorded from then on.
    func subscribe<Source: ObservableConvertibleType>(
        to observable: Source,
        queueName: @escaping () -> String?
    ) where Source.Element == Element {
        let disposable = observable.asObservable().subscribe { [self] event in
            let ready = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
                recorded.append(event)
                queues.append(queueName())
                guard event.isStopEvent else { return [] }
                defer { waiters = [] }
                return waiters
            }
            for continuation in ready { continuation.resume() }
        }
        lock.withLock { self.disposable = disposable }
    }

    /// Disposes of the subscription.
    func dispose() {
        lock.withLock { disposable }?.dispose()
    }

    /// Waits until the sequence completed or failed.
    func waitForEnd() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ended = lock.withLock { () -> Bool in
                if recorded.contains(where: \.isStopEvent) { return true }
                waiters.append(continuation)
                return false
            }
            if ended { continuation.resume() }
        }
    }
}
#endif
