import Foundation

/// How a cache answers a request: the whole session's (`HTTPCache.policy`), or one target's
/// (`RequestPolicies.cachePolicy`).
public enum CachePolicy: Sendable, Hashable {
    /// RFC 9111 as a private cache: a fresh response is served from the cache, a stale one is
    /// validated with the server first, and the request's and response's `Cache-Control`
    /// directives decide. The default.
    case useProtocol

    /// Every stored response is validated with the server before it is served, even a fresh
    /// one, as a request's `Cache-Control: no-cache` asks; a `304 Not Modified` still saves the
    /// body's transfer.
    case alwaysRevalidate

    /// As `useProtocol`, and when the network fails (no connection, a timeout, or a `500`,
    /// `502`, `503` or `504` answer), a stale stored response is served instead, as the
    /// `stale-if-error` directive of RFC 5861 describes: at most `maxStale` seconds past its
    /// freshness, or of any age when `nil`. A response marked `no-cache` or `must-revalidate`
    /// is never served stale.
    case staleIfError(maxStale: TimeInterval? = nil)

    /// The cache is neither read nor written for the request. An unsafe request (`POST`,
    /// `PUT`, `PATCH`, `DELETE`) still removes the stored responses of its URL.
    case disabled
}
