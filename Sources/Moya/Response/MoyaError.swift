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

    /// The error a cancelled request completes with, as URLSession and Moya report it
    /// (`isCancellation` is `true`): a transport of one's own completes a cancelled attempt
    /// with it.
    public static var cancelled: MoyaError {
        .underlying(
            NSError(
                domain: NSURLErrorDomain,
                code: NSURLErrorCancelled,
                userInfo: [
                    NSLocalizedDescriptionKey: "cancelled"
                ]
            ),
            nil
        )
    }
}

extension MoyaError: LocalizedError {
    /// A short explanation of what failed, with the underlying error's own explanation (for a
    /// `DecodingError`: where in the data, and what was wrong there).
    public var errorDescription: String? {
        switch self {
        case .imageMapping(let response):
            return "The response data could not be turned into an image." + Self.statusNote(response)
        case .jsonMapping(let response):
            return "The response data is not valid JSON." + Self.statusNote(response)
        case .stringMapping(let response):
            return "The response data could not be turned into a string." + Self.statusNote(response)
        case .objectMapping(let error, let response):
            return "The response data could not be decoded into the requested type: \(Self.describe(error))"
                + Self.statusNote(response)
        case .encodableMapping(let error):
            return "The Encodable body could not be encoded: \(Self.describe(error))"
        case .statusCode(let response):
            return "The status code \(response.statusCode) is not among the accepted ones."
        case .underlying(let error, _):
            return Self.describe(error)
        case .requestMapping(let url):
            return "The endpoint could not be turned into a URLRequest (URL: \(url))."
        case .parameterEncoding(let error):
            return "The parameters could not be encoded: \(Self.describe(error))"
        }
    }
}

extension MoyaError {
    /// For a body that did not map, a word on a status that is not 2xx: the body is then most
    /// likely the server's error message, not the type asked for, and the status is the news.
    static func statusNote(_ response: Response) -> String {
        guard !(200..<300).contains(response.statusCode) else { return "" }
        return " The response's status code was \(response.statusCode), so its body is likely an error"
            + " message: give the target `validationType: .successCodes`, or call `filterSuccessfulStatusCodes()`"
            + " before mapping, to fail on the status instead."
    }
}

extension MoyaError: CustomStringConvertible {
    /// The case and its explanation, which is what `print(error)` shows: the default would
    /// show an `NSError` without a description as `"(null)"`.
    public var description: String {
        "MoyaError.\(caseName): \(errorDescription ?? caseName)"
    }

    private var caseName: String {
        switch self {
        case .imageMapping: return "imageMapping"
        case .jsonMapping: return "jsonMapping"
        case .stringMapping: return "stringMapping"
        case .objectMapping: return "objectMapping"
        case .encodableMapping: return "encodableMapping"
        case .statusCode: return "statusCode"
        case .underlying: return "underlying"
        case .requestMapping: return "requestMapping"
        case .parameterEncoding: return "parameterEncoding"
        }
    }
}

extension MoyaError {
    /// The most useful text an error offers. `localizedDescription` alone is not it: for a
    /// `DecodingError` it is "The data isn't in the correct format", without the coding path,
    /// and for a plain Swift error it names only the type. An `NSError` without a description
    /// is given Foundation's generic one rather than its `"(null)"`.
    static func describe(_ error: Error) -> String {
        switch error {
        case let error as MoyaError:
            return error.errorDescription ?? error.caseName
        case let error as DecodingError:
            return describe(error)
        case let error as EncodingError:
            return describe(error)
        default:
            break
        }
        if let localized = error as? LocalizedError, let description = localized.errorDescription {
            return description
        }
        let nsError = error as NSError
        if let description = nsError.userInfo[NSLocalizedDescriptionKey] as? String {
            return description
        }
        guard type(of: error) is NSError.Type || error is CustomNSError else {
            // A Swift error's own text shows its case and values: `timeout(seconds: 3)`.
            return String(describing: error)
        }
        if let path = nsError.userInfo[NSFilePathErrorKey] as? String {
            return "\(nsError.localizedDescription) (\(path))"
        }
        return nsError.localizedDescription
    }

    private static func describe(_ error: DecodingError) -> String {
        switch error {
        case let .typeMismatch(type, context):
            return "type mismatch for \(type) at \(path(context)): \(details(context))"
        case let .valueNotFound(type, context):
            return "no value for \(type) at \(path(context)): \(details(context))"
        case let .keyNotFound(key, context):
            return "no value for the key \"\(key.stringValue)\" at \(path(context)): \(details(context))"
        case let .dataCorrupted(context):
            return "corrupted data at \(path(context)): \(details(context))"
        @unknown default:
            return String(describing: error)
        }
    }

    private static func describe(_ error: EncodingError) -> String {
        switch error {
        case let .invalidValue(value, context):
            return "invalid value \(value) at \(path(context)): \(details(context))"
        @unknown default:
            return String(describing: error)
        }
    }

    /// `user.addresses[1].city`, the way the path is written in the data's own terms.
    private static func path(_ context: DecodingError.Context) -> String {
        path(context.codingPath)
    }

    private static func path(_ context: EncodingError.Context) -> String {
        path(context.codingPath)
    }

    private static func path(_ codingPath: [CodingKey]) -> String {
        guard !codingPath.isEmpty else { return "the top level" }
        var text = ""
        for key in codingPath {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : "." + key.stringValue
            }
        }
        return text
    }

    private static func details(_ context: DecodingError.Context) -> String {
        details(context.debugDescription, context.underlyingError)
    }

    private static func details(_ context: EncodingError.Context) -> String {
        details(context.debugDescription, context.underlyingError)
    }

    private static func details(_ debugDescription: String, _ underlying: Error?) -> String {
        guard let underlying else { return debugDescription }
        return "\(debugDescription) (\(describe(underlying)))"
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
