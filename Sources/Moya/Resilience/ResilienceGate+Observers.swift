import NIOConcurrencyHelpers

/// A plugin that hears when a session's circuit breaker changes state for a key: a provider
/// whose session has a breaker hands it every such plugin when it is made. `MetricsPlugin`
/// (MoyaObservability) reports the state as a gauge.
package protocol CircuitStateObserver: AnyObject, Sendable {
    /// Hears that `key`'s breaker is now `state`, on the thread that changed it, outside the
    /// gate's lock. A breaker opens when an attempt's answer is counted, and goes half-open
    /// when the first trial is admitted after its open period.
    func circuitChanged(key: String, to state: CircuitBreaker.State)
}

extension ResilienceGate {
    /// A key's breaker, and the state it changed to.
    typealias BreakerChange = (key: String, state: CircuitBreaker.State)

    /// An observer the gate reports to without keeping it alive.
    struct WeakObserver: Sendable {
        weak var observer: (any CircuitStateObserver)?
    }

    /// Hands every later change of a breaker's state to `observer` too, for as long as it
    /// lives; once per observer.
    func addObserver(_ observer: any CircuitStateObserver) {
        observers.withLockedValue { $0[ObjectIdentifier(observer)] = WeakObserver(observer: observer) }
    }

    /// Tells the observers of `changes`, oldest first.
    func report(_ changes: [BreakerChange]) {
        guard !changes.isEmpty else { return }
        let live = observers.withLockedValue { observers in
            observers = observers.filter { $0.value.observer != nil }
            return observers.values.compactMap(\.observer)
        }
        for (key, state) in changes {
            for observer in live {
                observer.circuitChanged(key: key, to: state)
            }
        }
    }
}
