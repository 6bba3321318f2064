import Foundation

/// A Moya Plugin receives callbacks to perform side effects wherever a request is sent or received.
///
/// For example, a plugin may be used to
///  - log network requests
///  - hide and show a network activity indicator
///  - inject additional information into a request
///
/// The provider calls, in order: `prepare`, `willSend`, then once the result is known
/// `didReceive` and `process`. Every requirement has a default that does nothing.
///
/// As in Moya, a plugin need not be `Sendable`: `prepare` and `willSend` run on the thread that
/// makes the request, `didReceive` and `process` on the callback queue (the main queue unless
/// one is named). A plugin whose mutable state is touched from several threads (a provider used
/// from several queues or tasks, or a callback queue that is concurrent) guards that state
/// itself, as it would with Moya.
public protocol PluginType {
    /// Called to modify a request before sending.
    func prepare(_ request: URLRequest, target: TargetType) -> URLRequest

    /// Called immediately before a request is sent over the network (or stubbed).
    func willSend(_ request: RequestType, target: TargetType)

    /// Called after a response has been received, but before the MoyaProvider has invoked its
    /// completion handler. Also called, with the cancelled error, when a request is cancelled.
    func didReceive(_ result: Result<Moya.Response, MoyaError>, target: TargetType)

    /// Called to modify a result before completion.
    func process(_ result: Result<Moya.Response, MoyaError>, target: TargetType) -> Result<Moya.Response, MoyaError>
}

extension PluginType {
    /// Returns the request unchanged.
    public func prepare(_ request: URLRequest, target: TargetType) -> URLRequest { request }

    /// Does nothing.
    public func willSend(_ request: RequestType, target: TargetType) {}

    /// Does nothing.
    public func didReceive(_ result: Result<Moya.Response, MoyaError>, target: TargetType) {}

    /// Returns the result unchanged.
    public func process(
        _ result: Result<Moya.Response, MoyaError>,
        target: TargetType
    ) -> Result<Moya.Response, MoyaError> { result }
}
