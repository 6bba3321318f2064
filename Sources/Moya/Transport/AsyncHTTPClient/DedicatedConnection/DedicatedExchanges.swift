import AsyncHTTPClient
import NIOConcurrencyHelpers

/// The dedicated exchanges a transport has running, so that its `shutdown()` ends them as it
/// ends the requests in its clients' pools, and refuses the ones started after it.
final class DedicatedExchanges: Sendable {
    private struct State {
        var running: [UInt64: @Sendable (Error) -> Void] = [:]
        var nextID: UInt64 = 0
        var isShutDown = false
    }

    private let state = NIOLockedValueBox(State())

    /// Keeps `fail` until `remove` is called with the returned key; after the shutdown, fails
    /// the exchange at once, as AsyncHTTPClient refuses a request to a client shut down.
    func add(failing fail: @escaping @Sendable (Error) -> Void) -> UInt64? {
        let key = state.withLockedValue { state -> UInt64? in
            guard !state.isShutDown else { return nil }
            state.nextID &+= 1
            state.running[state.nextID] = fail
            return state.nextID
        }
        if key == nil {
            fail(HTTPClientError.alreadyShutdown)
        }
        return key
    }

    /// Forgets an exchange that ended.
    func remove(_ key: UInt64) {
        _ = state.withLockedValue { $0.running.removeValue(forKey: key) }
    }

    /// Ends every running exchange with AsyncHTTPClient's `cancelled`, as a client's shutdown
    /// ends its requests, and refuses those added later.
    func shutDown() {
        let running = state.withLockedValue { state in
            state.isShutDown = true
            defer { state.running = [:] }
            return Array(state.running.values)
        }
        for fail in running {
            fail(HTTPClientError.cancelled)
        }
    }
}
