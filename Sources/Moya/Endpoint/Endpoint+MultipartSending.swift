import Foundation

extension Endpoint {
    /// Refuses to send a multipart task that cannot go on the wire: one with no parts, or one
    /// whose method has no body (`GET`, `HEAD`...).
    ///
    /// Moya builds such a request without complaint (`urlRequest()` succeeds, and stubs answer
    /// it) and stops only when it would send it; it did so with `fatalError`, which one bad
    /// target must not cost a server, so this reports a `MoyaError` instead.
    ///
    /// - Parameters:
    ///   - parts: The task's parts.
    ///   - method: The method the request is about to be sent with: the one a request closure,
    ///     plugin or adapter left on it, since that is what would carry the body.
    /// - Throws: `MoyaError.parameterEncoding(ParameterEncodingError.multipartNotSupported)`.
    static func checkMultipartCanBeSent(_ parts: [MultipartFormData], method: String) throws {
        guard !parts.isEmpty, Moya.Method(rawValue: method.uppercased()).supportsMultipart else {
            throw MoyaError.parameterEncoding(
                ParameterEncodingError.multipartNotSupported(method: method, partCount: parts.count)
            )
        }
    }
}
