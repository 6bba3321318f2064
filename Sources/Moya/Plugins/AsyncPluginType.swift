import Foundation

/// A plugin whose `prepare` can `await`: to fetch a token, or sign a request with a key held by
/// an actor.
///
/// It runs in order with the other plugins' `prepare`; its other hooks are `PluginType`'s.
/// Throwing fails the request with the error (wrapped in `MoyaError.underlying` unless it is a
/// `MoyaError`) before anything is sent, as a failing `requestClosure` does: no plugin hears
/// `willSend` or `didReceive` for it.
public protocol AsyncPluginType: PluginType {
    /// Returns the request to send, possibly after awaiting.
    func prepare(_ request: URLRequest, target: TargetType) async throws -> URLRequest
}
