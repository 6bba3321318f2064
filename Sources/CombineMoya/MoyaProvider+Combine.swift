import Foundation
import Moya

#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif

extension MoyaProvider {
    /// A publisher that sends `target`'s request when subscribed to, emits its `Response` and
    /// finishes, or fails with its `MoyaError`.
    ///
    /// Nothing is sent before a subscriber asks for a value; each subscription sends its own
    /// request, and cancelling the subscription cancels that request. Values arrive on
    /// `callbackQueue`, else the provider's callback queue, else the main queue — as the
    /// completions of `request(_:callbackQueue:progress:completion:)` do; a value that had to
    /// wait for demand arrives on the thread that asked for it.
    public func requestPublisher(
        _ target: Target,
        callbackQueue: DispatchQueue? = nil
    ) -> AnyPublisher<Response, MoyaError> {
        RequestPublisher<Response>(isFinal: { _ in true }, callbackQueue: callbackQueue) { sink in
            // The completion holds the provider until the request ends: a released provider
            // cancels its requests, and a subscription must not depend on the caller keeping it.
            let provider = self
            return provider.request(target, callbackQueue: callbackQueue, progress: nil) { result in
                withExtendedLifetime(provider) {
                    switch result {
                    case .success(let response):
                        sink.send(response)
                        sink.finish()
                    case .failure(let error):
                        sink.fail(error)
                    }
                }
            }
        }
        .eraseToAnyPublisher()
    }

    /// A publisher that sends `target`'s request when subscribed to and emits its progress,
    /// then a last `ProgressResponse` carrying the response, and finishes; or fails with the
    /// request's `MoyaError`.
    ///
    /// Progress a subscriber has no demand for is skipped, never the completed response.
    /// Cancelling the subscription cancels the request.
    public func requestWithProgressPublisher(
        _ target: Target,
        callbackQueue: DispatchQueue? = nil
    ) -> AnyPublisher<ProgressResponse, MoyaError> {
        RequestPublisher<ProgressResponse>(isFinal: { $0.completed }, callbackQueue: callbackQueue) { sink in
            // As above: the provider lives until the request ends.
            let provider = self
            return provider.request(
                target,
                callbackQueue: callbackQueue,
                progress: { progress in sink.send(progress) }
            ) { result in
                withExtendedLifetime(provider) {
                    switch result {
                    case .success(let response):
                        // The provider sends the completed response through `progress` first; this
                        // one only counts if it did not (the sink ignores values after a final one).
                        sink.send(ProgressResponse(response: response))
                        sink.finish()
                    case .failure(let error):
                        sink.fail(error)
                    }
                }
            }
        }
        .eraseToAnyPublisher()
    }
}
