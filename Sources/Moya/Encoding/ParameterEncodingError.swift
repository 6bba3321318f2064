/// Why the built-in encodings could not apply parameters to a request.
///
/// Provider pipelines wrap it in `MoyaError.parameterEncoding(_:)`.
public enum ParameterEncodingError: Error, CustomStringConvertible, Sendable {
    /// The request has no URL to put query parameters in.
    case missingURL

    /// A value cannot be represented in JSON: `path` says where, `reason` what is wrong
    /// (a `Date`, a non-finite number, a non-string key...).
    case invalidJSONObject(path: String, reason: String)

    /// A value cannot be represented in a property list.
    case invalidPropertyListObject(path: String, reason: String)

    /// The serializer itself failed.
    case serializationFailed(description: String)

    /// `Task.requestCompositeParameters` was given a `URLEncoding` whose destination is not
    /// `.httpBody`: its parameters would not go into the body.
    case bodyEncodingMustTargetHTTPBody

    /// A multipart task was used with a method that has no body (`GET`, `HEAD`...), or with
    /// no parts at all.
    case multipartNotSupported(method: String, partCount: Int)

    /// A readable explanation.
    public var description: String {
        switch self {
        case .missingURL:
            return "The request has no URL to encode parameters into."
        case let .invalidJSONObject(path, reason):
            return "The parameters cannot be encoded as JSON: \(reason) at \(path)."
        case let .invalidPropertyListObject(path, reason):
            return "The parameters cannot be encoded as a property list: \(reason) at \(path)."
        case let .serializationFailed(description):
            return "Serialization failed: \(description)"
        case .bodyEncodingMustTargetHTTPBody:
            return "The body encoding of requestCompositeParameters must be URLEncoding.httpBody "
                + "(or another body encoding); put query parameters in urlParameters instead."
        case let .multipartNotSupported(method, partCount):
            if partCount == 0 {
                return "A multipart upload needs at least one part."
            }
            return "A multipart upload cannot use the \(method) method, which has no body."
        }
    }
}
