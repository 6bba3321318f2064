import Foundation

extension CacheRun {
    /// What a request handed to the base transport is for.
    enum Purpose: Sendable {
        /// An unsafe method: a success invalidates what is stored for its URL.
        case invalidation
        /// A lookup that found nothing to serve, or a response to validate (`validating`).
        case fetch(key: CacheKey, stored: CachedResponse?, validating: Bool, requestTime: Date)
    }
}
