import Foundation

extension CacheRun {
    /// Everything a run's threads share, under its one lock: the cancellation and completion
    /// rules, who waits for the run to wind down, and what the request in flight is for.
    struct State {
        var machine = CachingTransport.StateMachine()
        var stopSignal = StopSignal()
        /// What the answer of the request in flight is for.
        var purpose: Purpose?
    }

    /// What a request handed to the base transport is for.
    enum Purpose {
        /// An unsafe method: a success invalidates what is stored for its URL.
        case invalidation
        /// A lookup that found nothing to serve, or a response to validate (`validating`).
        case fetch(key: CacheKey, stored: CachedResponse?, validating: Bool, requestTime: Date)
    }
}
