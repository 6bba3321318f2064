import Foundation

/// A credential an `AuthenticationInterceptor` applies to requests: an OAuth token pair, say.
public protocol AuthenticationCredential: Sendable {
    /// Whether the credential must be refreshed before it is used (it expires soon, for
    /// example). Requests wait for that refresh instead of failing with a `401` first.
    var requiresRefresh: Bool { get }
}

/// Applies and refreshes one kind of credential, for an `AuthenticationInterceptor`.
///
/// Alamofire's `Authenticator`, with an asynchronous `refresh`.
public protocol Authenticator: Sendable {
    /// The credential this authenticator works with.
    associatedtype Credential: AuthenticationCredential

    /// Puts the credential on a request, typically in its `Authorization` header.
    func apply(_ credential: Credential, to request: inout URLRequest)

    /// Gets a new credential for an expired one. Called once for all the requests that need it.
    func refresh(_ credential: Credential) async throws -> Credential

    /// Whether `response` says the request failed for want of a valid credential. Default:
    /// the status is `401`.
    func didRequest(_ request: URLRequest, with response: Response) -> Bool

    /// Whether `request` was sent with `credential`: when it was sent with an older one, a
    /// refresh has happened since and the request is replayed without another refresh.
    func isRequest(_ request: URLRequest, authenticatedWith credential: Credential) -> Bool
}

extension Authenticator {
    public func didRequest(_ request: URLRequest, with response: Response) -> Bool {
        response.statusCode == 401
    }
}

/// Why an `AuthenticationInterceptor` could not authenticate a request.
public enum AuthenticationError: Error, CustomStringConvertible, LocalizedError {
    /// The interceptor has no credential to apply.
    case missingCredential
    /// Refreshing the credential failed; every request waiting for it fails with this error.
    case refreshFailed(Error)
    /// More refreshes than the refresh window allows: the server keeps refusing fresh credentials.
    case excessiveRefresh

    public var description: String {
        switch self {
        case .missingCredential:
            return "No credential is available to authenticate the request."
        case .refreshFailed(let error):
            return "Refreshing the credential failed: \(error.localizedDescription)"
        case .excessiveRefresh:
            return "The credential was refreshed too many times in a short period."
        }
    }

    public var errorDescription: String? { description }
}
