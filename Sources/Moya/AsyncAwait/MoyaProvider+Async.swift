import Foundation
import NIOConcurrencyHelpers

extension MoyaProvider {
    /// Sends a request and returns its response.
    ///
    /// Runs the same pipeline as `request(_:callbackQueue:progress:completion:)`, without
    /// hopping to a callback queue. Cancelling the Swift task cancels the request, which then
    /// throws Moya's cancelled error.
    ///
    /// Runs on the caller's actor (`nonisolated(nonsending)`): a target need not be `Sendable`,
    /// and a main-actor caller may pass one it keeps in a property. Only the waiting happens
    /// there; the request itself never blocks the caller's actor.
    ///
    /// - Throws: `MoyaError`.
    nonisolated(nonsending)
        public func request(_ target: Target) async throws(MoyaError) -> Response
    {
        let box = CancellableBox()
        let result: Result<Response, MoyaError> = await withTaskCancellationHandler {
            // Not the checked kind, which allocates a guard per request: the lifecycle calls
            // every completion exactly once, cancelled or not (tested on every surface).
            await withUnsafeContinuation { continuation in
                // Through the overridable method, so that a subclass's override runs, as it does
                // for callbacks and Combine, asking for the result at the continuation.
                let token = ResultDelivery.$requestedBySurface.withValue(.inPlace) {
                    request(target, callbackQueue: nil, progress: nil) { result in
                        continuation.resume(returning: result)
                    }
                }
                box.set(token)
            }
        } onCancel: {
            box.cancel()
        }
        return try result.get()
    }
}

/// Hands a request's `Cancellable` to a task cancellation handler that may run before it exists.
///
/// A value around its lock's box: one allocation per request, not two.
struct CancellableBox: Sendable {
    private let state = NIOLockedValueBox<(token: Cancellable?, cancelled: Bool)>((nil, false))

    init() {}

    func set(_ token: Cancellable) {
        let cancelNow = state.withLockedValue { state in
            state.token = token
            return state.cancelled
        }
        if cancelNow {
            token.cancel()
        }
    }

    func cancel() {
        let token = state.withLockedValue { state in
            state.cancelled = true
            return state.token
        }
        token?.cancel()
    }
}
