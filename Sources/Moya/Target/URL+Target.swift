import Foundation

extension URL {
    /// Creates the URL of a target: its `baseURL` with its `path` appended.
    ///
    /// An empty `path` leaves `baseURL` untouched (no trailing slash is added).
    public init<T: TargetType>(target: T) {
        if target.path.isEmpty {
            self = target.baseURL
        } else {
            self = target.baseURL.appendingPathComponent(target.path)
        }
    }
}

/// The string of a target's URL, as `URL(target:).absoluteString` makes it, without building
/// the URL where that is safe: Foundation's `appendingPathComponent` re-parses the whole URL and
/// was the largest single cost of a stubbed request.
enum TargetURL {
    /// `URL(target: target).absoluteString`.
    static func string(baseURL: URL, path: String) -> String {
        guard !path.isEmpty else { return baseURL.absoluteString }
        let base = baseURL.absoluteString
        guard let joined = simpleJoin(base: base, path: path, isRelative: baseURL.baseURL != nil) else {
            return baseURL.appendingPathComponent(path).absoluteString
        }
        return joined
    }

    /// The join for the common case, where it is plain concatenation: an absolute `http` or
    /// `https` base with no query or fragment (`appendingPathComponent` never consults the disk
    /// for those), and a path of characters that are never percent-encoded. `appendingPathComponent`
    /// then drops one trailing slash of the base and one leading slash of the path, and puts a
    /// slash between them. `nil` when the case is not that simple.
    ///
    /// An ASCII base (what `absoluteString` gives in practice) is checked and copied byte by
    /// byte into a string allocated once, each string read once; another goes through the same
    /// checks on characters.
    static func simpleJoin(base: String, path: String, isRelative: Bool) -> String? {
        guard !isRelative else { return nil }
        var base = base
        var path = path
        let join = base.withUTF8 { base in path.withUTF8 { path in bytesJoin(base: base, path: path) } }
        switch join {
        case .joined(let joined):
            return joined
        case .notSimple:
            return nil
        case .baseNotASCII:
            return unicodeJoin(base: base, path: path)
        }
    }

    /// What the byte-wise join found.
    private enum BytesJoin {
        case joined(String)
        case notSimple
        case baseNotASCII
    }

    /// `simpleJoin` on the bytes of an ASCII base.
    private static func bytesJoin(base: UnsafeBufferPointer<UInt8>, path: UnsafeBufferPointer<UInt8>) -> BytesJoin {
        guard path.allSatisfy(isKeptAsIs) else { return .notSimple }
        for byte in base {
            if byte >= 0x80 {
                return .baseNotASCII
            }
            if byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") {
                return .notSimple
            }
        }
        guard hasPrefix(base, "https://") || hasPrefix(base, "http://"),
            !(base.count >= 2 && base[base.count - 2] == UInt8(ascii: "/") && base.last == UInt8(ascii: "/"))
        else { return .notSimple }
        let trimmedBase = UnsafeBufferPointer(
            rebasing: base[..<(base.last == UInt8(ascii: "/") ? base.count - 1 : base.count)]
        )
        let trimmedPath = UnsafeBufferPointer(rebasing: path[(path.first == UInt8(ascii: "/") ? 1 : 0)...])
        let count = trimmedBase.count + 1 + trimmedPath.count
        return .joined(
            String(unsafeUninitializedCapacity: count) { joined in
                var index = joined.initialize(fromContentsOf: trimmedBase)
                joined[index] = UInt8(ascii: "/")
                index += 1
                index = joined[index...].initialize(fromContentsOf: trimmedPath)
                return index
            }
        )
    }

    /// Whether `bytes` start with `prefix`, compared as bytes rather than through a string view.
    private static func hasPrefix(_ bytes: UnsafeBufferPointer<UInt8>, _ prefix: StaticString) -> Bool {
        bytes.starts(with: UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount))
    }

    /// `simpleJoin` for a base outside ASCII, on characters.
    private static func unicodeJoin(base: String, path: String) -> String? {
        guard base.hasPrefix("https://") || base.hasPrefix("http://"),
            !base.utf8.contains(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }),
            !base.hasSuffix("//")
        else { return nil }
        let trimmedBase = base.hasSuffix("/") ? base.dropLast() : Substring(base)
        let trimmedPath = path.hasPrefix("/") ? path.dropFirst() : Substring(path)
        var joined = String(trimmedBase)
        joined.reserveCapacity(base.utf8.count + path.utf8.count + 1)
        joined += "/"
        joined += trimmedPath
        return joined
    }

    /// ASCII letters and digits, and `- . _ ~ / : @`, which `appendingPathComponent` keeps.
    private static func isKeptAsIs(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"),
            UInt8(ascii: ":"), UInt8(ascii: "@"):
            return true
        default:
            return false
        }
    }
}
