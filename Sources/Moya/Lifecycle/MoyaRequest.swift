import Foundation

/// The `RequestType` plugins see in `willSend`.
///
/// It is a reference so that a credential a plugin attaches (`CredentialsPlugin`) reaches the
/// transport, which answers a `401` challenge with it.
final class MoyaRequest: RequestType, Sendable {
    let request: URLRequest?
    let sessionHeaders: [String: String]
    private let storedCredential = InlineLock<URLCredential?>(nil)

    init(request: URLRequest, sessionHeaders: [String: String]) {
        self.request = request
        self.sessionHeaders = sessionHeaders
    }

    /// The credential a plugin attached, if any.
    var credential: URLCredential? {
        storedCredential.withLockedValue { $0 }
    }

    func authenticate(username: String, password: String, persistence: URLCredential.Persistence) -> Self {
        authenticate(with: URLCredential(user: username, password: password, persistence: persistence))
    }

    func authenticate(with credential: URLCredential) -> Self {
        storedCredential.withLockedValue { $0 = credential }
        return self
    }

    /// The request as Alamofire 5's `cURLDescription()` renders it, secrets included: it is
    /// meant to replay the request. `NetworkLoggerPlugin` renders the same command redacted.
    func cURLDescription(calling handler: @escaping (String) -> Void) -> Self {
        if let request {
            handler(CURLCommand(request: request, sessionHeaders: sessionHeaders).render())
        } else {
            handler(CURLCommand.unavailable)
        }
        return self
    }
}
