import Foundation

/// A type representing possible errors Moya can throw.
public enum MoyaError: Swift.Error {
    /// Indicates a response failed to map to an image.
    case imageMapping(Response)

    /// Indicates a response failed to map to a JSON structure.
    case jsonMapping(Response)

    /// Indicates a response failed to map to a String.
    case stringMapping(Response)

    /// Indicates a response failed to map to a Decodable object.
    case objectMapping(Swift.Error, Response)

    /// Indicates that an Encodable couldn't be encoded into Data.
    case encodableMapping(Swift.Error)

    /// Indicates a response failed with an invalid HTTP status code.
    case statusCode(Response)

    /// Indicates a response failed due to an underlying `Error`: a transport error, a
    /// cancellation, or a failed validation (`.underlying(MoyaError.statusCode(r), r)`).
    case underlying(Swift.Error, Response?)

    /// Indicates that an `Endpoint` failed to map to a `URLRequest`.
    case requestMapping(String)

    /// Indicates that an `Endpoint` failed to encode the parameters for the `URLRequest`.
    case parameterEncoding(Swift.Error)

    /// The older one-argument form of `.underlying`, with no response.
    public static func underlying(_ error: Swift.Error) -> MoyaError {
        .underlying(error, nil)
    }
}

extension MoyaError {
    /// Depending on error type, returns a `Response` object.
    public var response: Moya.Response? {
        switch self {
        case .imageMapping(let response),
            .jsonMapping(let response),
            .stringMapping(let response),
            .objectMapping(_, let response),
            .statusCode(let response):
            return response
        case .underlying(_, let response):
            return response
        case .encodableMapping, .requestMapping, .parameterEncoding:
            return nil
        }
    }

    /// Depending on error type, returns an underlying `Error`.
    var underlyingError: Swift.Error? {
        switch self {
        case .objectMapping(let error, _),
            .encodableMapping(let error),
            .underlying(let error, _),
            .parameterEncoding(let error):
            return error
        case .imageMapping, .jsonMapping, .stringMapping, .statusCode, .requestMapping:
            return nil
        }
    }

    /// Whether this error reports a cancelled request.
    public var isCancellation: Bool {
        guard case .underlying(let error, _) = self else { return false }
        let nsError = error as NSError
        return nsError.domain == NSURLErrorDomain && nsError.code == NSURLErrorCancelled
    }

    /// `error` itself when it is a `MoyaError`, else `.underlying(error, nil)`.
    static func wrapping(_ error: Error) -> MoyaError {
        (error as? MoyaError) ?? .underlying(error, nil)
    }

    /// The error a cancelled request completes with, as URLSession and Moya report it.
    static var cancelled: MoyaError {
        .underlying(NSError(domain: NSURLErrorDomain, code: NSURLErrorCancelled, userInfo: [
            NSLocalizedDescriptionKey: "cancelled",
        ]), nil)
    }
}

extension MoyaError: LocalizedError {
    /// A short explanation of what failed.
    public var errorDescription: String? {
        switch self {
        case .imageMapping:
            return "The response data could not be turned into an image."
        case .jsonMapping:
            return "The response data is not valid JSON."
        case .stringMapping:
            return "The response data could not be turned into a string."
        case .objectMapping:
            return "The response data could not be decoded into the requested type."
        case .encodableMapping:
            return "The Encodable body could not be encoded."
        case .statusCode(let response):
            return "The status code \(response.statusCode) is not among the accepted ones."
        case .underlying(let error, _):
            if let moyaError = error as? MoyaError {
                return moyaError.errorDescription
            }
            return error.localizedDescription
        case .requestMapping(let url):
            return "The endpoint could not be turned into a URLRequest (URL: \(url))."
        case .parameterEncoding(let error):
            return "The parameters could not be encoded: \(error)"
        }
    }
}

extension MoyaError: CustomNSError {
    /// The error domain, `"Moya.MoyaError"`.
    public static var errorDomain: String { "Moya.MoyaError" }

    /// A code per case, stable across releases.
    public var errorCode: Int {
        switch self {
        case .imageMapping: return 0
        case .jsonMapping: return 1
        case .stringMapping: return 2
        case .objectMapping: return 3
        case .encodableMapping: return 4
        case .statusCode: return 5
        case .underlying: return 6
        case .requestMapping: return 7
        case .parameterEncoding: return 8
        }
    }

    /// The description under `NSLocalizedDescriptionKey` and the underlying error under
    /// `NSUnderlyingErrorKey`.
    public var errorUserInfo: [String: Any] {
        var userInfo: [String: Any] = [:]
        userInfo[NSLocalizedDescriptionKey] = errorDescription
        userInfo[NSUnderlyingErrorKey] = underlyingError
        return userInfo
    }
}
