import Foundation

/// A target whose failures come with a body worth reading: `{"code": "rate_limited", ...}`.
///
/// Adopt it, name the body's type, and every surface hands the body over decoded: a response
/// whose status carries one (400 to 599 by default) fails with
/// `MoyaError.underlying(ErrorBodyResponse<ErrorBody>, response)`, which
/// ``MoyaError/errorBody(as:)`` reads back, for callbacks, Combine and plugins alike; the async
/// ``MoyaProvider/request(_:as:errorBody:atKeyPath:using:failsOnEmptyData:)`` throws it typed.
/// A body that does not decode fails with ``UndecodableErrorBody``, which keeps the response
/// and the decoding error. A target that does not adopt it behaves as in Moya 15.
///
/// ```swift
/// struct APIError: Decodable, Sendable { let code: String; let message: String }
///
/// extension GitHub: DecodableErrorTarget {
///     typealias ErrorBody = APIError
/// }
///
/// provider.request(.zen) { result in
///     if case .failure(let error) = result, let apiError = error.errorBody(as: APIError.self) {
///         print(apiError.code)
///     }
/// }
/// ```
///
/// A status that carries an error body fails even when `validationType` accepts it: the
/// target says that such a response is a failure. Streamed requests are not decoded.
public protocol DecodableErrorTarget: TargetType {
    /// The type of the body the server fails with.
    associatedtype ErrorBody: Decodable & Sendable

    /// Whether a response with `statusCode` carries an error body: 400 to 599 by default.
    func hasErrorBody(statusCode: Int) -> Bool

    /// The decoder of the error body: a plain `JSONDecoder` by default.
    var errorBodyDecoder: JSONDecoder { get }
}

extension DecodableErrorTarget {
    /// 400 to 599: client and server errors.
    public func hasErrorBody(statusCode: Int) -> Bool {
        (400..<600).contains(statusCode)
    }

    /// A plain `JSONDecoder`.
    public var errorBodyDecoder: JSONDecoder { JSONDecoder() }

    /// The failure `response` stands for, or `nil` when its status carries no error body.
    func errorBodyFailure(for response: Response) -> MoyaError? {
        guard hasErrorBody(statusCode: response.statusCode) else { return nil }
        return ErrorBodyDecoding.decode(ErrorBody.self, from: response, using: errorBodyDecoder)
    }
}

/// Where the lifecycle finds a target's error body, if it declares one.
enum ErrorBodyDecoding {
    /// Whether targets of `type` may declare an error body: worked out once per provider, so
    /// that other targets pay for no cast per request. A `MultiTarget` or a class may.
    static func mayApply(to type: TargetType.Type) -> Bool {
        type is any DecodableErrorTarget.Type || type is MultiTarget.Type || type is AnyObject.Type
    }

    /// The failure `response` stands for: its body decoded as `Body`, or, when it does not
    /// decode, the status failure with the raw body and the decoding error.
    static func decode<Body: Decodable & Sendable>(
        _ type: Body.Type,
        from response: Response,
        using decoder: JSONDecoder
    ) -> MoyaError {
        do {
            let body = try decoder.decode(Body.self, from: response.data)
            return .underlying(ErrorBodyResponse(body: body, response: response), response)
        } catch {
            let failure = UndecodableErrorBody(response: response, bodyType: "\(Body.self)", decodingError: error)
            return .underlying(failure, response)
        }
    }

    /// `result`, or the failure its response stands for when `target` declares an error body
    /// for its status.
    static func apply(to result: Result<Response, MoyaError>, target: TargetType) -> Result<Response, MoyaError> {
        let unwrapped = (target as? MultiTarget)?.target ?? target
        guard let declaring = unwrapped as? any DecodableErrorTarget else { return result }
        let response: Response?
        switch result {
        case .success(let received): response = received
        case .failure(let error):
            // Only a refused status carries a body of the server's; other failures stay.
            guard case .underlying(MoyaError.statusCode(let refused), _) = error else { return result }
            response = refused
        }
        guard let response, let failure = declaring.errorBodyFailure(for: response) else { return result }
        return .failure(failure)
    }
}
