/// Whether a method, header name or header value may go on the wire, answered with one table
/// lookup or comparison per byte, on the string's contiguous UTF-8: the pipeline checks every
/// prepared request's headers, the conversion every header again with the session's, the cache
/// every stored field, and most pass. The library checks headers here; `HeaderValidation` is the
/// reference it is tested against, and the one that words a refusal.
///
/// It accepts exactly what `HeaderValidation` accepts; when a check fails, `HeaderValidation`
/// says why, so the errors stay the same.
enum HeaderSyntax {
    /// RFC 9110 token bytes (`!#$%&'*+-.^_`|~`, digits and letters): bytes 0 to 63 in `low`,
    /// 64 to 127 in `high`, one bit each.
    private static let tokenBits: (low: UInt64, high: UInt64) = {
        var low: UInt64 = 0
        var high: UInt64 = 0
        for byte in UInt8(0)..<128 where HeaderValidation.isTokenByte(byte) {
            if byte < 64 {
                low |= 1 << UInt64(byte)
            } else {
                high |= 1 << UInt64(byte - 64)
            }
        }
        return (low, high)
    }()

    /// Whether `string` is a non-empty token: a legal method or header name.
    static func isToken(_ string: String) -> Bool {
        let bits = tokenBits
        return withUTF8(of: string) { isToken($0, bits: bits) }
    }

    /// Whether `string` is a legal field value: visible bytes, spaces and tabs, never CR, LF,
    /// NUL, another control byte or DEL.
    static func isFieldValue(_ string: String) -> Bool {
        withUTF8(of: string) { $0.allSatisfy(isFieldValueByte) }
    }

    /// Runs `body` on `string`'s UTF-8 in one buffer: the string's own storage, or a copy for a
    /// bridged string whose UTF-8 is not in one piece.
    private static func withUTF8(of string: String, _ body: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
        if let answer = string.utf8.withContiguousStorageIfAvailable(body) {
            return answer
        }
        return Array(string.utf8).withUnsafeBufferPointer(body)
    }

    private static func isFieldValueByte(_ byte: UInt8) -> Bool {
        (byte >= 0x20 && byte != 0x7F) || byte == 0x09
    }

    /// The reason `HeaderValidation` gives for a header, checked quickly first.
    static func problem(name: String, value: String) -> MoyaClientError? {
        if isToken(name) && isFieldValue(value) {
            return nil
        }
        return HeaderValidation.problem(name: name, value: value)
    }

    /// The reason `HeaderValidation` gives for a method, checked quickly first.
    static func problem(method: String) -> MoyaClientError? {
        isToken(method) ? nil : HeaderValidation.problem(method: method)
    }

    private static func isToken(_ bytes: UnsafeBufferPointer<UInt8>, bits: (low: UInt64, high: UInt64)) -> Bool {
        guard !bytes.isEmpty else { return false }
        for byte in bytes {
            let isTokenByte: Bool
            if byte < 64 {
                isTokenByte = bits.low >> UInt64(byte) & 1 == 1
            } else if byte < 128 {
                isTokenByte = bits.high >> UInt64(byte - 64) & 1 == 1
            } else {
                isTokenByte = false
            }
            if !isTokenByte {
                return false
            }
        }
        return true
    }
}
