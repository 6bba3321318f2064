import Foundation
import Moya

/// A `RequestType` made by hand, to call a plugin's `willSend` directly.
///
/// It records the credentials plugins attach and what `cURLDescription` is asked for.
final class StubRequest: RequestType {
    let request: URLRequest?
    let sessionHeaders: [String: String]
    private let credentials = Synchronized<[URLCredential]>([])

    init(_ request: URLRequest?, sessionHeaders: [String: String] = [:]) {
        self.request = request
        self.sessionHeaders = sessionHeaders
    }

    /// Every credential attached, in order.
    var attachedCredentials: [URLCredential] {
        credentials.update { $0 }
    }

    func authenticate(username: String, password: String, persistence: URLCredential.Persistence) -> Self {
        authenticate(with: URLCredential(user: username, password: password, persistence: persistence))
    }

    func authenticate(with credential: URLCredential) -> Self {
        credentials.update { $0.append(credential) }
        return self
    }

    func cURLDescription(calling handler: @escaping (String) -> Void) -> Self {
        handler("$ curl (stub)")
        return self
    }
}
