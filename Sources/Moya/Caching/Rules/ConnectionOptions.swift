import Foundation
import NIOHTTP1

/// The field names a response's `Connection` fields list (RFC 9110 7.6.1): fields that belong
/// to that one connection, which a cache does not store (RFC 9111 3.1).
///
/// Read in place, without building the list, when every `Connection` value is ASCII (in
/// practice, always: `keep-alive` or `close`); any other byte falls back to reading the values
/// as Unicode text, as `CachedHeaders` always did, so that both agree on every input.
struct ConnectionOptions {
    private enum Storage {
        /// No `Connection` field.
        case none
        /// ASCII values, scanned when asked.
        case ascii(HTTPHeaders)
        /// The listed names, trimmed of Unicode white space and lower-cased.
        case unicode(Set<String>)
    }

    private let storage: Storage

    init(_ headers: HTTPHeaders) {
        var found = false
        var ascii = true
        for (name, value) in headers where Self.isConnection(name) {
            found = true
            ascii = ascii && ASCII.isASCII(value)
        }
        if !found {
            storage = .none
        } else if ascii {
            storage = .ascii(headers)
        } else {
            storage = .unicode(Self.unicodeNames(headers))
        }
    }

    /// Whether a `Connection` field lists `name`, compared as the lower-cased text.
    func lists(_ name: String) -> Bool {
        switch storage {
        case .none:
            return false
        case .unicode(let names):
            return names.contains(name.lowercased())
        case .ascii(let headers):
            // Text outside ASCII may lower-case, or be canonically equivalent, to ASCII.
            guard ASCII.isASCII(name) else {
                return Self.unicodeNames(headers).contains(name.lowercased())
            }
            var name = name
            return name.withUTF8 { name in
                for (field, value) in headers where Self.isConnection(field) {
                    var value = value
                    if value.withUTF8({ Self.list($0, contains: name) }) {
                        return true
                    }
                }
                return false
            }
        }
    }

    /// The listed names as Unicode text: split at commas, trimmed of white space, lower-cased.
    private static func unicodeNames(_ headers: HTTPHeaders) -> Set<String> {
        Set(
            headers["connection"].flatMap { $0.split(separator: ",") }.map {
                $0.trimmingCharacters(in: .whitespaces).lowercased()
            }
        )
    }

    /// Whether the comma-separated `list` has an element that, trimmed of spaces and tabs (the
    /// ASCII white space), is `name` but for the case of ASCII letters. Empty elements are
    /// skipped, as `split` skips them.
    private static func list(_ list: UnsafeBufferPointer<UInt8>, contains name: UnsafeBufferPointer<UInt8>) -> Bool {
        var start = 0
        while start < list.count {
            var end = start
            while end < list.count, list[end] != UInt8(ascii: ",") {
                end += 1
            }
            if end > start {
                var first = start
                var last = end
                while first < last, ASCII.isBlank(list[first]) {
                    first += 1
                }
                while last > first, ASCII.isBlank(list[last - 1]) {
                    last -= 1
                }
                if last - first == name.count,
                    zip(list[first..<last], name).allSatisfy({ ASCII.lowercased($0) == ASCII.lowercased($1) })
                {
                    return true
                }
            }
            start = end + 1
        }
        return false
    }

    /// Whether a field name is `Connection`, matched as `HTTPHeaders`' own lookup matches it
    /// (`headers["connection"]`), so that both find the same fields.
    private static func isConnection(_ name: String) -> Bool {
        let connection = "connection".utf8
        return name.utf8.count == connection.count
            && zip(name.utf8, connection).allSatisfy { $0 & 0xDF == $1 & 0xDF }
    }
}
