import Foundation

/// Turns what a URLSession-style completion hands over into Moya's result.
///
/// Moya 15's public free function, for code that drives a `URLSession` (or a transport of its
/// own) and wants Moya's `Response` and `MoyaError` out of it. An error wins over a response
/// and data: it becomes `.underlying(error, response)`, with the response when there was one,
/// so that a caller can still read the status and body of a transfer that failed part way.
/// With neither a response nor an error, the result is `NSURLErrorUnknown`.
///
/// - Parameters:
///   - response: The HTTP response, if one arrived.
///   - request: The request that was sent, kept on the `Response`.
///   - data: The body received, if any; a missing body is an empty one.
///   - error: The error the transfer ended with, if any.
/// - Returns: `.success` with the response, or `.failure` with `MoyaError.underlying`.
public func convertResponseToResult(
    _ response: HTTPURLResponse?,
    request: URLRequest?,
    data: Data?,
    error: Swift.Error?
) -> Result<Moya.Response, MoyaError> {
    let moyaResponse = response.map {
        Moya.Response(statusCode: $0.statusCode, data: data ?? Data(), request: request, response: $0)
    }
    if let error {
        return .failure(.underlying(error, moyaResponse))
    }
    if let moyaResponse {
        return .success(moyaResponse)
    }
    return .failure(.underlying(NSError(domain: NSURLErrorDomain, code: NSURLErrorUnknown), nil))
}
