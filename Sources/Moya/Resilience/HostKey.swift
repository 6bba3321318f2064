import Foundation

/// The default key of the resilience policies' state: a URL's scheme, host and port, lower-cased,
/// with the scheme's default port when the URL gives none (`https://api.example.com:443`).
///
/// It is computed for every attempt a gate admits, so the common URL (an ASCII authority without
/// user info, percent escapes or an IPv6 literal) is read straight from the URL's text; any
/// other URL goes through Foundation's parser, which gives the same key for the common ones.
enum HostKey {
    /// The key of `url`.
    static func of(_ url: URL) -> String {
        if url.baseURL == nil, let key = plain(url.absoluteString) {
            return key
        }
        return parsed(url)
    }

    /// The key from Foundation's reading of `url`.
    static func parsed(_ url: URL) -> String {
        let scheme = url.scheme?.lowercased() ?? ""
        let port = url.port ?? (scheme == "https" ? 443 : 80)
        return "\(scheme)://\(url.host?.lowercased() ?? ""):\(port)"
    }

    /// The key read from an absolute URL's text, or `nil` when the text is not the plain form
    /// this reads (the caller then asks Foundation).
    static func plain(_ text: String) -> String? {
        var text = text
        return text.withUTF8 { bytes in
            guard let parts = Authority(bytes) else { return nil }
            return parts.key(in: bytes)
        }
    }

    /// Where the scheme, the host and the port lie in a URL's bytes.
    private struct Authority {
        let schemeEnd: Int
        let host: Range<Int>
        /// The port's digits, `nil` when the URL gives no port.
        let port: Range<Int>?

        init?(_ bytes: UnsafeBufferPointer<UInt8>) {
            guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0,
                bytes.count > colon + 2,
                bytes[colon + 1] == UInt8(ascii: "/"), bytes[colon + 2] == UInt8(ascii: "/")
            else { return nil }
            let start = colon + 3
            var end = start
            var portColon: Int?
            authority: while end < bytes.count {
                switch bytes[end] {
                case UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"):
                    break authority
                case UInt8(ascii: ":"):
                    portColon = end
                // User info, escapes, IPv6 literals and non-ASCII hosts are Foundation's to read.
                case UInt8(ascii: "@"), UInt8(ascii: "%"), UInt8(ascii: "["), 0x80...:
                    return nil
                default:
                    break
                }
                end += 1
            }
            let hostEnd = portColon ?? end
            guard hostEnd > start else { return nil }
            if let portColon {
                let digits = portColon + 1..<end
                // Foundation reads `:0080` as port 80 and `:` as no port: left to it.
                guard !digits.isEmpty, digits.count <= 5,
                    bytes[digits.lowerBound] != UInt8(ascii: "0") || digits.count == 1,
                    digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[$0]) })
                else { return nil }
                self.port = digits
            } else {
                self.port = nil
            }
            self.schemeEnd = colon
            self.host = start..<hostEnd
        }

        func key(in bytes: UnsafeBufferPointer<UInt8>) -> String {
            let isHTTPS = schemeEnd == 5 && zip(0..<5, "https".utf8).allSatisfy { lowered(bytes[$0]) == $1 }
            let defaultPort: StaticString = isHTTPS ? "443" : "80"
            let portCount = port?.count ?? defaultPort.utf8CodeUnitCount
            let count = schemeEnd + 3 + host.count + 1 + portCount
            return String(unsafeUninitializedCapacity: count) { out in
                var next = 0
                func write(_ byte: UInt8) {
                    out[next] = byte
                    next += 1
                }
                for index in 0..<schemeEnd { write(lowered(bytes[index])) }
                for byte in "://".utf8 { write(byte) }
                for index in host { write(lowered(bytes[index])) }
                write(UInt8(ascii: ":"))
                if let port {
                    for index in port { write(bytes[index]) }
                } else {
                    defaultPort.withUTF8Buffer { digits in
                        for byte in digits { write(byte) }
                    }
                }
                return next
            }
        }

        private func lowered(_ byte: UInt8) -> UInt8 {
            (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
        }
    }
}
