import Foundation

/// Closure to be executed when a request has completed.
public typealias Completion = (_ result: Result<Moya.Response, MoyaError>) -> Void

/// Closure to be executed when progress changes.
public typealias ProgressBlock = (_ progress: ProgressResponse) -> Void

/// A type that can make requests for targets; `MoyaProvider` is the one Moya ships.
public protocol MoyaProviderType: AnyObject {
    /// The target type the provider serves.
    associatedtype Target: TargetType

    /// Designated request-making method. Returns a `Cancellable` token to cancel the request later.
    func request(
        _ target: Target,
        callbackQueue: DispatchQueue?,
        progress: Moya.ProgressBlock?,
        completion: @escaping Moya.Completion
    ) -> Cancellable
}
