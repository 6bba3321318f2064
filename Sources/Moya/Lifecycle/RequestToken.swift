import NIOConcurrencyHelpers

/// The `Cancellable` a caller gets back: cancelling it cancels this caller's part of the request.
final class RequestToken: Cancellable, Sendable {
    private let lifecycle: RequestLifecycle?
    private let subscriber: Int
    private let cancelled = NIOLockedValueBox(false)

    init(lifecycle: RequestLifecycle?, subscriber: Int) {
        self.lifecycle = lifecycle
        self.subscriber = subscriber
    }

    var isCancelled: Bool {
        cancelled.withLockedValue { $0 }
    }

    func cancel() {
        let first = cancelled.withLockedValue { cancelled in
            defer { cancelled = true }
            return !cancelled
        }
        if first {
            lifecycle?.cancel(subscriber: subscriber)
        }
    }
}
