import Foundation

/// Encodes parameters as a JSON body.
///
/// The parameters are checked before serialization, so a value JSON cannot hold (a `Date`,
/// `Double.nan`...) throws `ParameterEncodingError.invalidJSONObject` instead of trapping.
/// `Content-Type` becomes `application/json` unless the request already has one.
public struct JSONEncoding: ParameterEncoding {
    /// Compact JSON.
    public static var `default`: JSONEncoding { JSONEncoding() }

    /// Pretty-printed JSON.
    public static var prettyPrinted: JSONEncoding { JSONEncoding(options: .prettyPrinted) }

    /// The options given to `JSONSerialization`.
    public let options: JSONSerialization.WritingOptions

    /// Creates an encoding with the given writing options.
    public init(options: JSONSerialization.WritingOptions = []) {
        self.options = options
    }

    /// Encodes `parameters` as the request's JSON body.
    public func encode(_ urlRequest: URLRequestConvertible, with parameters: Parameters?) throws -> URLRequest {
        try encode(urlRequest, withJSONObject: parameters)
    }

    /// Encodes any JSON object (a dictionary or an array) as the request's body.
    public func encode(_ urlRequest: URLRequestConvertible, withJSONObject jsonObject: Any? = nil) throws -> URLRequest
    {
        var urlRequest = try urlRequest.asURLRequest()
        try encode(into: &urlRequest, withJSONObject: jsonObject)
        return urlRequest
    }

    /// `encode(_:withJSONObject:)` on a request the caller owns, changed in place, without the
    /// copy of the whole request a change of a shared one makes (see `URLEncoding`).
    func encode(into urlRequest: inout URLRequest, withJSONObject jsonObject: Any?) throws {
        guard let jsonObject else { return }
        guard jsonObject is [String: Any] || jsonObject is [Any] else {
            throw ParameterEncodingError.invalidJSONObject(
                path: "$",
                reason: "the top level must be an object or an array"
            )
        }
        try SerializableValueCheck.validateJSON(jsonObject)
        let data: Data
        do {
            data = try JSONSerialization.data(withJSONObject: jsonObject, options: options)
        } catch {
            throw ParameterEncodingError.serializationFailed(description: "\(error)")
        }
        if urlRequest.value(forHTTPHeaderField: "Content-Type") == nil {
            urlRequest.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        urlRequest.httpBody = data
    }
}
