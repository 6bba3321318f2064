/// Who waits for a transport's work to wind down (a session's transfer, or a decorator's such
/// as the cache's run, which waits for the transport below it): callbacks added before `stop()`
/// run then, callbacks added after run at once.
///
/// A value kept under its owner's lock, beside the owner's other state, so that the owner takes
/// no lock and no object of its own for it. Callbacks run outside that lock: the methods return
/// what to run.
struct StopSignal {
    private var stopped = false
    private var callbacks: [@Sendable () -> Void] = []

    /// Keeps `callback` until the work stops; `true` when it has stopped already, and the
    /// caller runs `callback` now.
    mutating func whenStopped(_ callback: @escaping @Sendable () -> Void) -> Bool {
        if !stopped {
            callbacks.append(callback)
        }
        return stopped
    }

    /// The work has stopped: the callbacks to run now.
    mutating func stop() -> [@Sendable () -> Void] {
        stopped = true
        defer { callbacks = [] }
        return callbacks
    }
}
