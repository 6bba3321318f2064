import Foundation

/// How a request decoding both its success and its error body fails: with the server's error
/// body, or with any other `MoyaError`.
public enum ErrorBodyFailure<Body: Decodable & Sendable>: Error, CustomStringConvertible {
    /// The server failed with this body; the response keeps the status and headers.
    case errorBody(Body, Response)
    /// Anything else: the network, a refused status without a decodable body (see
    /// `MoyaError.undecodableErrorBody`), a success body that did not decode, a cancel.
    case moya(MoyaError)

    /// The body, or the error's own description.
    public var description: String {
        switch self {
        case .errorBody(let body, let response): return "Status \(response.statusCode): \(body)"
        case .moya(let error): return error.description
        }
    }
}

extension MoyaProvider {
    /// Sends a request and decodes its success body as `type`, or its error body as
    /// `errorBody`, throwing the error body typed.
    ///
    /// The error body is read from a response whose status is not 2xx, or, for a
    /// `DecodableErrorTarget`, whose status the target says carries one. A body that does not
    /// decode as `errorBody` throws `.moya`, with `MoyaError.undecodableErrorBody` set.
    ///
    /// ```swift
    /// do throws(ErrorBodyFailure<APIError>) {
    ///     let user = try await provider.request(.userProfile("ashfurrow"), as: User.self, errorBody: APIError.self)
    /// } catch .errorBody(let apiError, _) {
    ///     print(apiError.message)
    /// } catch .moya(let error) {
    ///     print(error)
    /// }
    /// ```
    nonisolated(nonsending)
        public func request<D: Decodable, Body: Decodable & Sendable>(
            _ target: Target,
            as type: D.Type,
            errorBody: Body.Type,
            atKeyPath keyPath: String? = nil,
            using decoder: JSONDecoder = JSONDecoder(),
            failsOnEmptyData: Bool = true
        ) async throws(ErrorBodyFailure<Body>) -> D
    {
        let response: Response
        do {
            response = try await request(target)
        } catch {
            throw Self.errorBodyFailure(error, as: Body.self)
        }
        guard (200..<300).contains(response.statusCode) else {
            // A target that declares no error body, with a validation that let the status pass.
            throw Self.errorBodyFailure(.underlying(MoyaError.statusCode(response), response), as: Body.self)
        }
        do {
            return try response.map(type, atKeyPath: keyPath, using: decoder, failsOnEmptyData: failsOnEmptyData)
        } catch let error as MoyaError {
            throw .moya(error)
        } catch {
            throw .moya(.objectMapping(error, response))
        }
    }

    /// `error` as the typed failure: its error body, decoded by the target's declaration or
    /// here from a refused status's body, else the error itself.
    private static func errorBodyFailure<Body>(_ error: MoyaError, as type: Body.Type) -> ErrorBodyFailure<Body> {
        var error = error
        if case .underlying(MoyaError.statusCode(let response), _) = error {
            error = ErrorBodyDecoding.decode(Body.self, from: response, using: JSONDecoder())
        }
        if case .underlying(let underlying as ErrorBodyResponse<Body>, _) = error {
            return .errorBody(underlying.body, underlying.response)
        }
        return .moya(error)
    }
}
