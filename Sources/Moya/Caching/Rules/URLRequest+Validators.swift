import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLRequest {
    /// Adds a stored response's validators, `If-None-Match` and `If-Modified-Since`, to a
    /// request that has neither (the cache validates only such requests): the same headers as
    /// two `setValue(_:forHTTPHeaderField:)` calls.
    ///
    /// On Linux, `setValue` capitalizes the name and checks the value character by character on
    /// every call, and each call rebuilds the header dictionary; together they cost more than
    /// the rest of a revalidation's bookkeeping. There the names are capitalized once, the
    /// value checked byte by byte, and the dictionary set once. A value `setValue` could refuse
    /// (one with a CR, an LF or a NUL) goes through `setValue` itself.
    mutating func addValidators(entityTag: String?, lastModified: String?) {
        #if canImport(FoundationNetworking)
        if entityTag != nil || lastModified != nil, entityTag.map(Self.isPlainHeaderValue) ?? true,
            lastModified.map(Self.isPlainHeaderValue) ?? true
        {
            var fields = allHTTPHeaderFields ?? [:]
            if let entityTag {
                fields[Self.ifNoneMatch] = entityTag
            }
            if let lastModified {
                fields[Self.ifModifiedSince] = lastModified
            }
            allHTTPHeaderFields = fields
            return
        }
        #endif
        if let entityTag {
            setValue(entityTag, forHTTPHeaderField: "If-None-Match")
        }
        if let lastModified {
            setValue(lastModified, forHTTPHeaderField: "If-Modified-Since")
        }
    }

    #if canImport(FoundationNetworking)
    /// The names as `setValue` stores them, capitalized by Foundation's own rules.
    private static let ifNoneMatch = "If-None-Match".capitalized
    private static let ifModifiedSince = "If-Modified-Since".capitalized

    /// A value `setValue` accepts as it is: no CR, LF or NUL, the only bytes it looks at.
    private static func isPlainHeaderValue(_ value: String) -> Bool {
        !value.utf8.contains { $0 == 0 || $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\n") }
    }
    #endif
}
