import Foundation

/// Request type used by `willSend` plugin function.
///
/// It exposes the request about to be sent without exposing the transport underneath.
public protocol RequestType {
    /// The request to be sent; `nil` when it could not be built.
    var request: URLRequest? { get }

    /// Additional headers appended to the request when added to the session.
    var sessionHeaders: [String: String] { get }

    /// Authenticates the request with a username and password, answering a `401` challenge.
    func authenticate(username: String, password: String, persistence: URLCredential.Persistence) -> Self

    /// Authenticates the request with a `URLCredential` instance, answering a `401` challenge.
    func authenticate(with credential: URLCredential) -> Self

    /// cURL representation of the instance.
    ///
    /// - Returns: The cURL equivalent of the instance, passed to `handler`.
    func cURLDescription(calling handler: @escaping (String) -> Void) -> Self
}
