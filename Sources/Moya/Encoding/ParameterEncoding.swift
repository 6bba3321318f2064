import Foundation

/// A dictionary of parameters to apply to a `URLRequest`.
public typealias Parameters = [String: Any]

/// A type that can build a `URLRequest`.
public protocol URLRequestConvertible {
    /// Returns a `URLRequest` or throws if an `Error` was encountered.
    func asURLRequest() throws -> URLRequest
}

extension URLRequest: URLRequestConvertible {
    /// Returns the request itself.
    public func asURLRequest() throws -> URLRequest { self }
}

/// A type used to define how a set of parameters are applied to a `URLRequest`.
///
/// The requirement is Alamofire's, so encodings written for Moya compile unchanged.
public protocol ParameterEncoding {
    /// Creates a `URLRequest` by encoding parameters and applying them to the passed request.
    ///
    /// - Parameters:
    ///   - urlRequest: The request to which parameters are applied.
    ///   - parameters: The parameters to apply, or `nil` to leave the request as it is.
    /// - Returns: The encoded request.
    /// - Throws: Any error produced while encoding; `ParameterEncodingError` for the built-in
    ///   encodings.
    func encode(_ urlRequest: URLRequestConvertible, with parameters: Parameters?) throws -> URLRequest
}

extension URLRequest {
    /// The request's HTTP method as a `Moya.Method`, as Alamofire offers it.
    public var method: Moya.Method? {
        get { httpMethod.map(Moya.Method.init(rawValue:)) }
        set { httpMethod = newValue?.rawValue }
    }
}
