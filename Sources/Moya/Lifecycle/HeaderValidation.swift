import Foundation

/// Rejects header names and values that would corrupt the request on the wire (CR/LF
/// injection, control bytes), before anything is sent.
enum HeaderValidation {
    /// Why a header was refused.
    struct InvalidHeader: Error, CustomStringConvertible, LocalizedError {
        let name: String
        let reason: String

        var description: String { "Invalid header \"\(name.debugDescription.dropFirst().dropLast())\": \(reason)." }
        var errorDescription: String? { description }
    }

    static func problem(in request: URLRequest) -> InvalidHeader? {
        for (name, value) in request.allHTTPHeaderFields ?? [:] {
            if let problem = problem(name: name, value: value) {
                return problem
            }
        }
        return nil
    }

    static func problem(name: String, value: String) -> InvalidHeader? {
        if name.isEmpty {
            return InvalidHeader(name: name, reason: "the name is empty")
        }
        // RFC 9110 token characters.
        for byte in name.utf8 {
            let isTokenByte = (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || "!#$%&'*+-.^_`|~".utf8.contains(byte)
            if !isTokenByte {
                return InvalidHeader(name: name, reason: "the name contains the byte 0x\(String(byte, radix: 16))")
            }
        }
        // Field values may hold visible bytes, spaces and tabs; never CR, LF, NUL or DEL.
        for byte in value.utf8 where (byte < 0x20 && byte != 0x09) || byte == 0x7F {
            return InvalidHeader(name: name, reason: "the value contains the control byte 0x\(String(byte, radix: 16))")
        }
        return nil
    }
}
