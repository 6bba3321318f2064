import Foundation
import NIOHTTP1

extension CachedResponse {
    /// What every lookup of a stored response reads from its headers, parsed once when the
    /// headers are set (stored, read from disk, or updated by a `304`) rather than on every
    /// hit: a fresh hit needs its directives, its dates and the headers it serves, and parsing
    /// them was most of its cost.
    struct Parsed: Sendable, Equatable {
        /// The `Cache-Control` directives.
        var cacheControl: CacheControl
        /// `Date`, when present and valid.
        var date: Date?
        /// `Age` in seconds, when present and valid.
        var age: Int?
        /// Whether there is an `Expires` field; `expires` is its date when it is valid (an
        /// invalid one, such as `0`, means already expired: RFC 9111 5.3).
        var hasExpires: Bool
        var expires: Date?
        /// `Last-Modified`, when present and valid: the heuristic lifetime's base.
        var lastModified: Date?
        /// The fields as a served response carries them, but its `Age`, which is set anew each
        /// time: NIO headers, leaving out any field NIO would refuse.
        var servedHeaders: HTTPHeaders

        init(_ headers: CachedHeaders) {
            cacheControl = CacheControl(fieldValues: headers.values("cache-control"))
            date = headers.first("date").flatMap(HTTPDate.parse)
            age = headers.first("age").flatMap(CacheControl.deltaSeconds)
            let expiresField = headers.first("expires")
            hasExpires = expiresField != nil
            expires = expiresField.flatMap(HTTPDate.parse)
            lastModified = headers.first("last-modified").flatMap(HTTPDate.parse)
            servedHeaders = headers.httpHeaders(without: "age")
        }
    }
}
