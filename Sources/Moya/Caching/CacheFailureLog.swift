import Foundation
import Logging
import NIOConcurrencyHelpers

/// Where an `HTTPCache`'s storage reports its failures: kept for `HTTPCache.health`, logged as
/// warnings through the session's logger at most once per kind a minute, and handed to the
/// plugins of the providers using the cache that observe its failures (`CacheFailureObserver`).
///
/// A failing disk fails on every request; one warning a minute per kind says so without
/// drowning the log.
final class CacheFailureLog: Sendable {
    /// The counts and the throttle, apart from the IO so that they are tested alone.
    struct State: Sendable {
        /// How long a kind of failure stays quiet in the log after a warning.
        static let quietInterval: TimeInterval = 60

        private(set) var counts: [HTTPCache.Failure.Kind: Int] = [:]
        private(set) var last: HTTPCache.Failure?
        private var lastWarned: [HTTPCache.Failure.Kind: Date] = [:]

        /// Records `failure`; returns whether to log a warning for it.
        mutating func record(_ failure: HTTPCache.Failure) -> Bool {
            counts[failure.kind, default: 0] += 1
            last = failure
            if let warned = lastWarned[failure.kind], failure.date.timeIntervalSince(warned) < Self.quietInterval,
                failure.date >= warned
            {
                return false
            }
            lastWarned[failure.kind] = failure.date
            return true
        }
    }

    private let state = NIOLockedValueBox(State())
    /// The first session's logger wins; until a session adopts the cache, a logger of its own.
    private let logger = NIOLockedValueBox<Logger?>(nil)
    private let observers = NIOLockedValueBox<[ObjectIdentifier: WeakObserver]>([:])

    /// The counts and the last failure.
    var report: (counts: [HTTPCache.Failure.Kind: Int], last: HTTPCache.Failure?) {
        state.withLockedValue { ($0.counts, $0.last) }
    }

    /// Logs through `logger` from now on, unless a session already gave one.
    func adopt(_ logger: Logger?) {
        guard let logger else { return }
        self.logger.withLockedValue { current in
            if current == nil { current = logger }
        }
    }

    /// Hands every later failure to `observer` too, for as long as it lives; once per observer.
    func addObserver(_ observer: any CacheFailureObserver) {
        observers.withLockedValue { $0[ObjectIdentifier(observer)] = WeakObserver(observer: observer) }
    }

    /// Records a failure of `kind`.
    func record(_ kind: HTTPCache.Failure.Kind, reason: String, now: Date = Date()) {
        let failure = HTTPCache.Failure(kind: kind, reason: reason, date: now)
        let warns = state.withLockedValue { $0.record(failure) }
        if warns {
            let logger = self.logger.withLockedValue { $0 } ?? Logger(label: "Moya.HTTPCache")
            logger.warning(
                "\(failure) Requests go on over the network.",
                metadata: ["moya.cache.failure": "\(kind.rawValue)"]
            )
        }
        let live = observers.withLockedValue { observers in
            observers = observers.filter { $0.value.observer != nil }
            return observers.values.compactMap(\.observer)
        }
        for observer in live {
            observer.cacheFailed(failure)
        }
    }
}

/// A plugin that hears of the failures of the cache of the providers it is given to: a
/// provider whose session has a cache hands it every such plugin when it is made.
/// `MetricsPlugin` (MoyaObservability) counts them.
package protocol CacheFailureObserver: AnyObject, Sendable {
    /// Hears of one failure of the cache's storage, on the thread that met it.
    func cacheFailed(_ failure: HTTPCache.Failure)
}

/// An observer the cache reports to without keeping it alive.
private struct WeakObserver: Sendable {
    weak var observer: (any CacheFailureObserver)?
}
