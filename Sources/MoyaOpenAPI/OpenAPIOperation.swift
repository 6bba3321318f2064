#if OpenAPI
import Foundation
import HTTPTypes
import Moya

/// One call of a generated client's operation, as `MoyaTransport` hands it to its provider: the
/// target of a `MoyaProvider<OpenAPIOperation>`.
///
/// A Moya target is usually an enum whose cases name an API's requests; here the OpenAPI
/// document names them, so the operation's `operationID` plays the case's part. Moya names a
/// target after its case in logs (the target's description), metric dimensions and span names
/// (`OpenAPIOperation.getGreeting`), and `MoyaTesting`'s fixture files
/// (`OpenAPIOperation/getGreeting-GET-<hash>.json`): all of them see the `operationID`.
///
/// Use it in the provider's closures to treat operations differently:
///
/// ```swift
/// let provider = MoyaProvider<OpenAPIOperation>(
///     endpointClosure: { operation in
///         MoyaProvider.defaultEndpointMapping(for: operation)
///             .adding(newHTTPHeaderFields: ["X-Operation": operation.operationID])
///     },
///     stubClosure: { $0.operationID == "getGreeting" ? .immediate : .never }
/// )
/// ```
///
/// The request's whole URL (the client's server URL, the path and the query, as the generated
/// code encoded them) is its `baseURL`, and `path` is empty: appending an encoded path to a URL
/// would encode it a second time.
public struct OpenAPIOperation: TargetType, Sendable {
    /// The operation's identifier in the OpenAPI document.
    public let operationID: String

    /// The request as the generated client made it, before Moya's plugins and interceptors
    /// see it.
    public let request: HTTPRequest

    /// The request's URL: the client's server URL, then the path and query of `request`.
    public let url: URL

    /// The body to send, gathered from the client's `HTTPBody`.
    let body: RequestBodySpool.Body?

    init(operationID: String, request: HTTPRequest, url: URL, body: RequestBodySpool.Body?) {
        self.operationID = operationID
        self.request = request
        self.url = url
        self.body = body
    }

    /// The request's whole URL; see the type's discussion.
    public var baseURL: URL { url }

    /// Empty: `baseURL` already holds the path.
    public var path: String { "" }

    /// The request's method.
    public var method: Moya.Method {
        Moya.Method(rawValue: request.method.rawValue)
    }

    /// The body: none, the bytes gathered in memory, or the file they were spooled to.
    public var task: Moya.Task {
        switch body {
        case .none:
            return .requestPlain
        case .data(let data):
            return .requestData(data)
        case .file(let file):
            return .uploadFile(file.url)
        }
    }

    /// The request's header fields; see `HTTPFieldsConversion.headers(of:)` for the few left to
    /// the session.
    public var headers: [String: String]? {
        HTTPFieldsConversion.headers(of: request.headerFields)
    }

    /// `.none`: every status reaches the generated client, which knows which ones the document
    /// declares. An interceptor still sees each response, so `RetryPolicy` retries a `503`.
    public var validationType: ValidationType { .none }
}

extension OpenAPIOperation: CustomStringConvertible {
    /// The `operationID`, which is what Moya prints where it prints a target case.
    public var description: String { operationID }
}

extension OpenAPIOperation: CustomReflectable {
    /// Reflects as an enum case named after the operation (its one child bears the name), since
    /// Moya reads a target's case name from its mirror (fixture names) and its description
    /// (metric dimensions, span names).
    public var customMirror: Mirror {
        Mirror(self, children: [(label: operationID, value: ())], displayStyle: .enum)
    }
}
#endif
