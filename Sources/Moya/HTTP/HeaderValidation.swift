import Foundation

/// Rejects methods, header names and values that would corrupt the request on the wire
/// (CR/LF injection, control bytes), before anything is sent.
enum HeaderValidation {
    /// The first problem of a prepared request's method and headers, checked the quick way
    /// (`HeaderSyntax`): every request goes through here once its plugins prepared it.
    static func problem(in request: URLRequest) -> MoyaClientError? {
        if let method = request.httpMethod, let problem = HeaderSyntax.problem(method: method) {
            return problem
        }
        for (name, value) in request.allHTTPHeaderFields ?? [:] {
            if let problem = HeaderSyntax.problem(name: name, value: value) {
                return problem
            }
        }
        return nil
    }

    static func problem(name: String, value: String) -> MoyaClientError? {
        if name.isEmpty {
            return .invalidHeader(name, reason: "the name is empty")
        }
        for byte in name.utf8 where !isTokenByte(byte) {
            return .invalidHeader(name, reason: "the name contains the byte 0x\(String(byte, radix: 16))")
        }
        // Field values may hold visible bytes, spaces and tabs; never CR, LF, NUL or DEL.
        for byte in value.utf8 where (byte < 0x20 && byte != 0x09) || byte == 0x7F {
            return .invalidHeader(name, reason: "the value contains the control byte 0x\(String(byte, radix: 16))")
        }
        return nil
    }

    static func problem(method: String) -> MoyaClientError? {
        method.isEmpty || !method.utf8.allSatisfy(isTokenByte) ? .invalidMethod(method) : nil
    }

    /// Whether two header names are the same, ignoring the case of ASCII letters only.
    static func isSameName(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf8.count == rhs.utf8.count
            && zip(lhs.utf8, rhs.utf8).allSatisfy { ASCII.lowercased($0) == ASCII.lowercased($1) }
    }

    /// Whether `byte` may appear in an RFC 9110 token (a header name, a method).
    static func isTokenByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            || "!#$%&'*+-.^_`|~".utf8.contains(byte)
    }
}
