import Foundation

/// A failure the server explained with a body of the type a ``DecodableErrorTarget`` declares.
///
/// It arrives as `MoyaError.underlying(ErrorBodyResponse<Body>, response)`, so Moya 15 code
/// matching `.underlying` keeps working; ``MoyaError/errorBody(as:)`` reads the body.
public struct ErrorBodyResponse<Body: Decodable & Sendable>: Error, LocalizedError, CustomStringConvertible {
    /// The decoded body.
    public let body: Body
    /// The response, with its status code, headers and raw body.
    public let response: Response

    /// The status and the body.
    public var description: String {
        "The server failed with status code \(response.statusCode): \(body)"
    }

    /// The same text as `description`.
    public var errorDescription: String? { description }
}

/// A response whose status carries an error body that did not decode as the target's
/// `ErrorBody`: the status failure, with the raw body (`response.data`) and the decoding error.
public struct UndecodableErrorBody: Error, LocalizedError, CustomStringConvertible {
    /// The response, with its status code and raw body.
    public let response: Response
    /// The name of the type the body did not decode as.
    public let bodyType: String
    /// Why it did not decode.
    public let decodingError: Error

    /// The status, and why its body did not decode.
    public var description: String {
        "The server failed with status code \(response.statusCode), and its body (\(response.data.count) bytes) "
            + "did not decode as \(bodyType): \(MoyaError.describe(decodingError))"
    }

    /// The same text as `description`.
    public var errorDescription: String? { description }
}

extension MoyaError {
    /// The error body a ``DecodableErrorTarget``'s failure came with, decoded as `type`; `nil`
    /// for any other failure, or a body of another type.
    public func errorBody<Body: Decodable & Sendable>(as type: Body.Type = Body.self) -> Body? {
        guard case .underlying(let underlying, _) = self else { return nil }
        return (underlying as? ErrorBodyResponse<Body>)?.body
    }

    /// The status failure whose error body did not decode, with its raw body and the decoding
    /// error; `nil` for any other failure.
    public var undecodableErrorBody: UndecodableErrorBody? {
        guard case .underlying(let underlying, _) = self else { return nil }
        return underlying as? UndecodableErrorBody
    }
}
