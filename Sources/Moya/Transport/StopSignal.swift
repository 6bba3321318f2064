import NIOConcurrencyHelpers

/// Tells interested parties, once, that a transport's work has wound down (a decorator's,
/// such as the cache's run, which waits for the transport below it): callbacks added
/// before `stop()` run then, callbacks added after run at once.
final class StopSignal: Sendable {
    private let state = NIOLockedValueBox<(stopped: Bool, callbacks: [@Sendable () -> Void])>((false, []))

    /// Runs `callback` once the work has stopped.
    func whenStopped(_ callback: @escaping @Sendable () -> Void) {
        let stoppedAlready = state.withLockedValue { state -> Bool in
            if !state.stopped {
                state.callbacks.append(callback)
            }
            return state.stopped
        }
        if stoppedAlready {
            callback()
        }
    }

    /// The work has stopped: runs every waiting callback.
    func stop() {
        let callbacks = state.withLockedValue { state in
            state.stopped = true
            defer { state.callbacks = [] }
            return state.callbacks
        }
        for callback in callbacks {
            callback()
        }
    }
}
