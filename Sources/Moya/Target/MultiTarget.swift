import Foundation

/// A target that wraps any other target, so one provider can serve several target types.
///
/// Every member forwards to the wrapped target, including `authorizationType`.
public enum MultiTarget: TargetType {
    /// The embedded `TargetType`.
    case target(TargetType)

    /// Initializes a `MultiTarget`.
    public init(_ target: TargetType) {
        self = .target(target)
    }

    /// The embedded target's base `URL`.
    public var path: String { target.path }

    /// The baseURL of the embedded target.
    public var baseURL: URL { target.baseURL }

    /// The HTTP method of the embedded target.
    public var method: Moya.Method { target.method }

    /// The sampleData of the embedded target.
    public var sampleData: Data { target.sampleData }

    /// The `Task` of the embedded target.
    public var task: Task { target.task }

    /// The `ValidationType` of the embedded target.
    public var validationType: ValidationType { target.validationType }

    /// The headers of the embedded target.
    public var headers: [String: String]? { target.headers }

    /// The embedded `TargetType`.
    public var target: TargetType {
        switch self {
        case .target(let target):
            return target
        }
    }
}

extension MultiTarget: AccessTokenAuthorizable {
    /// The embedded target's authorization type, or `nil` when it does not adopt
    /// `AccessTokenAuthorizable`.
    public var authorizationType: AuthorizationType? {
        (target as? AccessTokenAuthorizable)?.authorizationType
    }
}
