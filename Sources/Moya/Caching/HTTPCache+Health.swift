import Foundation

extension HTTPCache {
    /// What a cache holds, and what went wrong with its own storage.
    ///
    /// A disk cache whose directory was deleted or replaced by a file, or whose disk is full,
    /// keeps every request working over the network; this says that it stopped caching, and
    /// why. The same failures reach the session's logger (a warning, once per kind of failure
    /// a minute) and MoyaObservability's `MetricsPlugin` (`moya_cache_failures_total`).
    ///
    /// ```swift
    /// let health = cache.health
    /// if let failure = health.lastFailure {
    ///     print("cache: \(health.entries) entries, \(health.bytes) bytes; last failure: \(failure)")
    /// }
    /// ```
    public struct Health: Sendable, Equatable {
        /// How many responses are stored.
        public var entries: Int
        /// What the stored responses take, in bytes.
        public var bytes: Int
        /// How many failures of each kind since the cache was made.
        public var failureCounts: [Failure.Kind: Int]
        /// The most recent failure, if any.
        public var lastFailure: Failure?

        /// Whether the cache has never failed.
        public var isHealthy: Bool { lastFailure == nil }
    }

    /// One failure of a cache's own storage. The request that met it went on without the cache.
    public struct Failure: Sendable, Equatable, CustomStringConvertible {
        /// What the cache was doing.
        public enum Kind: String, Sendable, Hashable, CaseIterable {
            /// An entry could not be written: the directory is gone or is not a directory, the
            /// disk is full, or permission was refused.
            case write
            /// A stored entry could not be read: its file or the directory is gone.
            case read
            /// A stored entry was damaged (truncated, corrupt, of another key) and was removed.
            case damagedEntry
        }

        /// What the cache was doing.
        public let kind: Kind
        /// What went wrong, for people.
        public let reason: String
        /// When it happened.
        public let date: Date

        /// Says what the cache was doing and what went wrong.
        public var description: String {
            switch kind {
            case .write: return "The HTTP cache could not store a response: \(reason)"
            case .read: return "The HTTP cache could not read a stored response: \(reason)"
            case .damagedEntry: return "The HTTP cache removed a damaged entry: \(reason)"
            }
        }
    }

    /// What the cache holds and how its storage fares; see ``Health``.
    public var health: Health {
        let report = failures.report
        return Health(
            entries: store.entryCount,
            bytes: store.totalBytes,
            failureCounts: report.counts,
            lastFailure: report.last
        )
    }
}
