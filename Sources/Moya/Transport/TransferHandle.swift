import AsyncHTTPClient
import NIOConcurrencyHelpers

/// Cancels a transfer's current trip to the pool, and any trip started after the cancel, and
/// tells who cancelled once the transfer has wound down. `Outcome` is what the transfer's
/// AsyncHTTPClient delegate produces.
///
/// A value around its locked state, so that the one object per transfer is the lock's box: the
/// handle fits in a `TransportHandle` existential without an allocation of its own.
struct TransferHandle<Outcome: Sendable>: TransportHandle {
    /// The handle's rules, under one lock.
    struct State {
        private var task: HTTPClient.Task<Outcome>?
        private var cancelled = false
        private var stopSignal = StopSignal()

        var isCancelled: Bool { cancelled }

        /// Records the current trip; returns whether it must be cancelled at once.
        mutating func track(_ task: HTTPClient.Task<Outcome>) -> Bool {
            self.task = task
            return cancelled
        }

        /// Returns the trip to cancel (on the first cancel only), and whether `stopped` can be
        /// called at once because the transfer has already wound down.
        mutating func cancel(
            then stopped: @escaping @Sendable () -> Void
        ) -> (task: HTTPClient.Task<Outcome>?, stoppedAlready: Bool) {
            let first = !cancelled
            cancelled = true
            let stoppedAlready = stopSignal.whenStopped(stopped)
            return (first ? task : nil, stoppedAlready)
        }

        /// The transfer has ended: whether it had been cancelled, and who waits for the end.
        mutating func finish() -> (cancelled: Bool, whenStopped: [@Sendable () -> Void]) {
            (cancelled, stopSignal.stop())
        }
    }

    private let state = NIOLockedValueBox(State())

    init() {}

    /// Whether the transfer was cancelled: it then reports nothing.
    var isCancelled: Bool {
        state.withLockedValue { $0.isCancelled }
    }

    /// Records the current trip, cancelling it at once if the transfer was cancelled already.
    func track(_ task: HTTPClient.Task<Outcome>) {
        if state.withLockedValue({ $0.track(task) }) {
            task.cancel()
        }
    }

    func cancel(then stopped: @escaping @Sendable () -> Void) {
        let (task, stoppedAlready) = state.withLockedValue { $0.cancel(then: stopped) }
        task?.cancel()
        if stoppedAlready {
            stopped()
        }
    }

    /// The transfer has ended and cleaned up after itself: whether it had been cancelled (its
    /// result is then not reported), and the callbacks to run now.
    func finished() -> (cancelled: Bool, whenStopped: [@Sendable () -> Void]) {
        state.withLockedValue { $0.finish() }
    }
}
