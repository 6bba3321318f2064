import Foundation

/// The protocol used to define the specifications necessary for a `MoyaProvider`.
///
/// A target is usually an `enum` whose cases are the API's operations. As in Moya, a target need
/// not be `Sendable` (a case may carry `[String: Any]` parameters): the provider reads it on the
/// thread that makes the request and hands it to plugins and interceptors as Moya does, never to
/// two of them at once (see the Threading and Concurrency article). Declare your target
/// `Sendable` too when your own code shares it between tasks.
public protocol TargetType {
    /// The target's base `URL`.
    var baseURL: URL { get }

    /// The path to be appended to `baseURL` to form the full `URL`.
    var path: String { get }

    /// The HTTP method used in the request.
    var method: Moya.Method { get }

    /// Provides stub data for use in testing. Defaults to `Data()`.
    var sampleData: Data { get }

    /// The type of HTTP task to be performed.
    var task: Task { get }

    /// The type of validation to perform on the request. Defaults to `.none`.
    var validationType: ValidationType { get }

    /// The headers to be used in the request.
    var headers: [String: String]? { get }
}

extension TargetType {
    /// No stub data unless the target provides some.
    public var sampleData: Data { Data() }

    /// No status code validation unless the target asks for it.
    public var validationType: ValidationType { .none }
}
