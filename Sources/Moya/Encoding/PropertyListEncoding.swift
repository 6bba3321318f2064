import Foundation

/// Encodes parameters as a property list body.
///
/// `Content-Type` becomes `application/x-plist` unless the request already has one.
public struct PropertyListEncoding: ParameterEncoding {
    /// XML property lists.
    public static var `default`: PropertyListEncoding { PropertyListEncoding() }

    /// XML property lists.
    public static var xml: PropertyListEncoding { PropertyListEncoding(format: .xml) }

    /// Binary property lists.
    public static var binary: PropertyListEncoding { PropertyListEncoding(format: .binary) }

    /// The property list format.
    public let format: PropertyListSerialization.PropertyListFormat

    /// The options given to `PropertyListSerialization`.
    public let options: PropertyListSerialization.WriteOptions

    /// Creates an encoding.
    public init(
        format: PropertyListSerialization.PropertyListFormat = .xml,
        options: PropertyListSerialization.WriteOptions = 0
    ) {
        self.format = format
        self.options = options
    }

    /// Encodes `parameters` as the request's property list body.
    public func encode(_ urlRequest: URLRequestConvertible, with parameters: Parameters?) throws -> URLRequest {
        var urlRequest = try urlRequest.asURLRequest()
        guard let parameters else { return urlRequest }
        try SerializableValueCheck.validatePropertyList(parameters)
        let data: Data
        do {
            data = try PropertyListSerialization.data(fromPropertyList: parameters, format: format, options: options)
        } catch {
            throw ParameterEncodingError.serializationFailed(description: "\(error)")
        }
        if urlRequest.value(forHTTPHeaderField: "Content-Type") == nil {
            urlRequest.setValue("application/x-plist", forHTTPHeaderField: "Content-Type")
        }
        urlRequest.httpBody = data
        return urlRequest
    }
}
