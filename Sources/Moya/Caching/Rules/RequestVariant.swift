import Crypto
import Foundation

/// The request header values a stored response was selected with (RFC 9111 4.1), kept as
/// salted SHA-256 digests, never in clear: the names in the response's `Vary`, and always the
/// request's credentials (`Authorization`, `Proxy-Authorization`, `Cookie`), so that a
/// response stored for one user or login is never served to another.
struct RequestVariant: Sendable, Equatable {
    /// One header: its lower-cased name and the digest of its value, `nil` when absent.
    struct Entry: Sendable, Equatable {
        var name: String
        var digest: [UInt8]?
    }

    /// Random bytes mixed into every digest of this entry, so that equal secrets in two entries
    /// have different digests and no table of known values reveals them.
    var salt: [UInt8]
    var entries: [Entry]

    /// Headers that always select, whatever `Vary` says.
    static let credentialHeaders = ["authorization", "cookie", "proxy-authorization"]

    init(salt: [UInt8], entries: [Entry]) {
        self.salt = salt
        self.entries = entries
    }

    /// The variant of `request` (with the session's default headers) for a response whose
    /// `Vary` names `varyNames`.
    init(varyNames: [String], request: URLRequest, sessionHeaders: [String: String]) {
        var salt = [UInt8](repeating: 0, count: 16)
        var generator = SystemRandomNumberGenerator()
        for index in salt.indices {
            salt[index] = generator.next()
        }
        var names: [String] = []
        for name in Self.credentialHeaders + varyNames where !names.contains(name) {
            names.append(name)
        }
        self.salt = salt
        self.entries = names.map { name in
            Entry(name: name, digest: Self.value(of: name, in: request, sessionHeaders).map { Self.digest($0, salt) })
        }
    }

    /// Whether `request` sends the same values as the one this variant was made from.
    func matches(_ request: URLRequest, sessionHeaders: [String: String]) -> Bool {
        entries.allSatisfy { entry in
            Self.value(of: entry.name, in: request, sessionHeaders).map { Self.digest($0, salt) } == entry.digest
        }
    }

    /// The lower-cased names a `Vary` field lists; `nil` for `Vary: *`, which no later request
    /// can match (4.1).
    static func varyNames(_ values: [String]) -> [String]? {
        var names: [String] = []
        for value in values {
            for part in value.split(separator: ",") {
                let name = part.trimmingCharacters(in: .whitespaces).lowercased()
                if name == "*" {
                    return nil
                }
                if !name.isEmpty, !names.contains(name) {
                    names.append(name)
                }
            }
        }
        return names
    }

    /// The value the request sends for `name`: its own, else the session's default.
    /// Names compare as ASCII: `name` is lower-cased, and a request's field names are tokens by
    /// the time it is sent. (`value(forHTTPHeaderField:)` would make a lower-cased copy of every
    /// field name on Linux, for each of the three credential headers of every lookup.)
    private static func value(of name: String, in request: URLRequest, _ sessionHeaders: [String: String]) -> String? {
        if let own = request.allHTTPHeaderFields?.first(where: { HeaderValidation.isSameName($0.key, name) }) {
            return own.value.trimmingCharacters(in: .whitespaces)
        }
        guard !sessionHeaders.isEmpty else { return nil }
        return sessionHeaders.first { HeaderValidation.isSameName($0.key, name) }?.value
            .trimmingCharacters(in: .whitespaces)
    }

    private static func digest(_ value: String, _ salt: [UInt8]) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(data: salt)
        hasher.update(data: Data(value.utf8))
        return Array(hasher.finalize())
    }
}
