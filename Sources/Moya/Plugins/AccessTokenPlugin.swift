import Foundation

/// A protocol for controlling the behavior of `AccessTokenPlugin`.
public protocol AccessTokenAuthorizable {
    /// Represents the authorization header to use for requests; `nil` means no header.
    var authorizationType: AuthorizationType? { get }
}

/// An enum representing the header to use with an `AccessTokenPlugin`.
public enum AuthorizationType: Equatable, Hashable, Sendable {
    /// The `"Basic"` header.
    case basic

    /// The `"Bearer"` header.
    case bearer

    /// Custom header implementation.
    case custom(String)

    /// The scheme written before the token.
    public var value: String {
        switch self {
        case .basic: return "Basic"
        case .bearer: return "Bearer"
        case .custom(let customValue): return customValue
        }
    }
}

/// A plugin for adding basic or bearer-type authorization headers to requests.
///
/// ```
/// Authorization: Basic <token>
/// Authorization: Bearer <token>
/// Authorization: <Custom> <token>
/// ```
public struct AccessTokenPlugin: PluginType {
    /// A closure returning the access token for a target.
    public typealias TokenClosure = (TargetType) -> String

    /// A closure returning the access token to be applied in the header.
    public let tokenClosure: TokenClosure

    /// Initialize a new `AccessTokenPlugin`.
    ///
    /// - Parameter tokenClosure: A closure returning the token to be applied in the pattern
    ///   `Authorization: <AuthorizationType> <token>`. It receives the target (unwrapped from a
    ///   `MultiTarget`).
    public init(tokenClosure: @escaping TokenClosure) {
        self.tokenClosure = tokenClosure
    }

    /// Initialize a new `AccessTokenPlugin` whose token does not depend on the target, as in
    /// older Moya versions: `AccessTokenPlugin { token }`.
    public init(tokenClosure: @escaping () -> String) {
        self.tokenClosure = { _ in tokenClosure() }
    }

    /// Adds the `Authorization` header when the target asks for one.
    public func prepare(_ request: URLRequest, target: TargetType) -> URLRequest {
        guard let authorizable = target as? AccessTokenAuthorizable,
            let authorizationType = authorizable.authorizationType
        else { return request }

        let realTarget = (target as? MultiTarget)?.target ?? target
        var request = request
        request.setValue(authorizationType.value + " " + tokenClosure(realTarget), forHTTPHeaderField: "Authorization")
        return request
    }
}
