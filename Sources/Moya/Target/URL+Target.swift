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
    /// byte into a string allocated once; another goes through the same checks on characters.
    static func simpleJoin(base: String, path: String, isRelative: Bool) -> String? {
        guard !isRelative, path.utf8.allSatisfy(isKeptAsIs) else { return nil }
        guard ASCII.isASCII(base) else { return unicodeJoin(base: base, path: path) }
        var base = base
        var path = path
        return base.withUTF8 { base in
            path.withUTF8 { path in
                guard base.starts(with: "https://".utf8) || base.starts(with: "http://".utf8),
                    !base.contains(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }),
                    !(base.count >= 2 && base[base.count - 2] == UInt8(ascii: "/") && base.last == UInt8(ascii: "/"))
                else { return nil }
                let trimmedBase = UnsafeBufferPointer(
                    rebasing: base[..<(base.last == UInt8(ascii: "/") ? base.count - 1 : base.count)]
                )
                let trimmedPath = UnsafeBufferPointer(rebasing: path[(path.first == UInt8(ascii: "/") ? 1 : 0)...])
                let count = trimmedBase.count + 1 + trimmedPath.count
                return String(unsafeUninitializedCapacity: count) { joined in
                    var index = joined.initialize(fromContentsOf: trimmedBase)
                    joined[index] = UInt8(ascii: "/")
                    index += 1
                    index = joined[index...].initialize(fromContentsOf: trimmedPath)
                    return index
                }
            }
        }
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
