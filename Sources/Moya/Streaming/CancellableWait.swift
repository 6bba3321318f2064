import NIOConcurrencyHelpers

/// Waits, in a stream's pipeline (`StreamPipeline`), for work it does not own — an
/// interceptor's `adapt` or `retry`, a token refresh shared with other requests — but stops
/// waiting the moment the waiting task is cancelled.
///
/// A cancelled request must complete at once with the cancelled error, even when the work it
/// waits for ignores cancellation or never ends. The work itself goes on: a refresh started for
/// several requests still serves the others, and its credential the next request.
enum CancellableWait {
    /// The work's value, or `nil` when the calling task was cancelled first.
    static func value<T: Sendable>(of work: @escaping @Sendable () async -> T) async -> T? {
        let race = Race<T>()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                race.wait(with: continuation)
                // Inherits the task locals (the request's context) and the priority.
                _Concurrency.Task { race.finish(await work()) }
            }
        } onCancel: {
            race.finish(nil)
        }
    }
}

/// The first of "the work finished" and "the waiter was cancelled" wins; the other is ignored.
private final class Race<T: Sendable>: Sendable {
    private enum State {
        case idle
        case waiting(CheckedContinuation<T?, Never>)
        /// Decided before the continuation arrived (a cancel that came first).
        case decided(T?)
        case done
    }

    private let state = NIOLockedValueBox(State.idle)

    func wait(with continuation: CheckedContinuation<T?, Never>) {
        let early = state.withLockedValue { state -> T?? in
            switch state {
            case .idle:
                state = .waiting(continuation)
                return nil
            case .decided(let value):
                state = .done
                return .some(value)
            case .waiting, .done:
                return nil
            }
        }
        if let early {
            continuation.resume(returning: early)
        }
    }

    func finish(_ value: T?) {
        let continuation = state.withLockedValue { state -> CheckedContinuation<T?, Never>? in
            switch state {
            case .idle:
                state = .decided(value)
                return nil
            case .waiting(let continuation):
                state = .done
                return continuation
            case .decided, .done:
                return nil
            }
        }
        continuation?.resume(returning: value)
    }
}
