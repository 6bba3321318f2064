import Crypto
import Foundation

/// Where a response is stored: its request's method and URL (RFC 9111 2), without the
/// fragment, which never reaches the server.
///
/// Which of the request's headers the response varies on is kept in the entry itself
/// (`RequestVariant`): one response is stored per method and URL, the latest, as OkHttp does.
struct CacheKey: Hashable, Sendable {
    let method: String
    let url: String

    /// The key of a request whose method is `method`, upper-cased (as the cache's router has
    /// it already), or `nil` for a request without a URL.
    init?(method: String, url: URL?) {
        guard let url else { return nil }
        self.method = method
        let text = url.absoluteString
        // Searched as bytes: a search by `Character` costs a hit more than its lookup.
        if let hash = text.utf8.firstIndex(of: UInt8(ascii: "#")) {
            self.url = String(text[..<hash])
        } else {
            self.url = text
        }
    }

    /// The key under which a `GET` of `url` is stored, as an unsafe request invalidates it.
    static func get(_ url: URL?) -> CacheKey? {
        CacheKey(method: "GET", url: url)
    }

    /// A SHA-256 of the key, in hexadecimal: a disk entry's file name, which so shows neither
    /// the URL nor anything in its query.
    var digest: String {
        SHA256.hash(data: Data("\(method) \(url)".utf8)).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }
}
