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
    static func simpleJoin(base: String, path: String, isRelative: Bool) -> String? {
        guard !isRelative, base.hasPrefix("https://") || base.hasPrefix("http://"),
            !base.utf8.contains(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }),
            !base.hasSuffix("//"),
            path.utf8.allSatisfy(isKeptAsIs)
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
