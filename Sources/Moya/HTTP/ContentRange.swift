import Foundation

/// A `Content-Range` header of a `206` answering one byte range (RFC 9110, section 14.4):
/// `bytes <first>-<last>/<complete length or *>`.
///
/// Only what a resumed download needs: where the bytes start, where they end, and how long the
/// whole representation is when the server says so. Anything else (another unit, a range the
/// server could not satisfy, `multipart/byteranges`) does not parse, and the download starts
/// again rather than guessing.
struct ContentRange: Equatable, Sendable {
    /// The offset of the first byte sent.
    var first: Int64
    /// The offset of the last byte sent (inclusive).
    var last: Int64
    /// The length of the whole representation; `nil` when the server sent `*`.
    var completeLength: Int64?

    /// How many bytes the range holds.
    var length: Int64 { last - first + 1 }

    init(first: Int64, last: Int64, completeLength: Int64?) {
        self.first = first
        self.last = last
        self.completeLength = completeLength
    }

    /// Parses `value`; `nil` for anything that is not one satisfied byte range.
    init?(_ value: String) {
        let trimmed = value.trimmingCharacters(in: Self.blanks)
        guard trimmed.lowercased().hasPrefix("bytes ") else { return nil }
        let spec = trimmed.dropFirst("bytes ".count).trimmingCharacters(in: Self.blanks)
        let parts = spec.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        let bounds = parts[0].split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard bounds.count == 2, let first = Self.offset(bounds[0]), let last = Self.offset(bounds[1]), first <= last
        else { return nil }
        if parts[1] == "*" {
            self.completeLength = nil
        } else {
            guard let complete = Self.offset(parts[1]), last < complete else { return nil }
            self.completeLength = complete
        }
        self.first = first
        self.last = last
    }

    /// HTTP's optional white space.
    private static let blanks = CharacterSet(charactersIn: " \t")

    /// A non-negative decimal offset of digits only (no sign, no spaces), that fits an `Int64`.
    private static func offset(_ text: Substring) -> Int64? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return nil
        }
        return Int64(text)
    }
}
