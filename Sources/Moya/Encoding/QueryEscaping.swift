import Foundation

/// Percent-escapes query components byte by byte, with the same result as
/// `addingPercentEncoding(withAllowedCharacters:)` and `URLEncoding`'s allowed set.
///
/// Foundation's version looks every character up in a `CharacterSet` and goes through
/// `NSString` on Linux; with twenty parameters that was most of the cost of building a request.
/// The allowed set holds ASCII characters only, so a table of 128 bits taken from the same
/// `CharacterSet` decides every byte: the UTF-8 bytes of any other character are escaped.
enum QueryEscaping {
    /// The characters a query component keeps as they are (RFC 3986, section 3.4): the query's
    /// characters, less the general and sub-delimiters. `?` and `/` stay.
    static let allowedCharacters: CharacterSet = {
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: ":#[]@!$&'()*+,;=")
        return allowed
    }()

    /// `allowedCharacters` for bytes 0 to 63 (`low`) and 64 to 127 (`high`), one bit each.
    private static let allowedBits: (low: UInt64, high: UInt64) = {
        var low: UInt64 = 0
        var high: UInt64 = 0
        for byte in UInt8(0)..<128 where allowedCharacters.contains(Unicode.Scalar(byte)) {
            if byte < 64 {
                low |= 1 << UInt64(byte)
            } else {
                high |= 1 << UInt64(byte - 64)
            }
        }
        return (low, high)
    }()

    /// `string`, escaped.
    static func escape(_ string: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(string.utf8.count)
        append(escaping: string, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `string`, escaped, to `output`.
    static func append(escaping string: String, to output: inout [UInt8]) {
        let bits = allowedBits
        let appended: Void? = string.utf8.withContiguousStorageIfAvailable { buffer in
            append(buffer, bits: bits, to: &output)
        }
        if appended == nil {
            // A bridged string may not have its UTF-8 in one piece.
            append(Array(string.utf8), bits: bits, to: &output)
        }
    }

    private static func append<Bytes: Collection<UInt8>>(
        _ bytes: Bytes,
        bits: (low: UInt64, high: UInt64),
        to output: inout [UInt8]
    ) {
        for byte in bytes {
            let allowed: Bool
            if byte < 64 {
                allowed = bits.low >> UInt64(byte) & 1 == 1
            } else if byte < 128 {
                allowed = bits.high >> UInt64(byte - 64) & 1 == 1
            } else {
                allowed = false
            }
            if allowed {
                output.append(byte)
            } else {
                output.append(UInt8(ascii: "%"))
                output.append(hexDigit(byte >> 4))
                output.append(hexDigit(byte & 0x0F))
            }
        }
    }

    /// The uppercase hexadecimal digit of a value below 16, as Foundation writes escapes.
    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10
    }
}
