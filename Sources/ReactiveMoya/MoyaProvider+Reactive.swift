#if ReactiveMoya
import Foundation
import Moya
// ReactiveSwift has no Sendable annotations. The closures below cross no isolation boundary the
// compiler sees: the provider's callbacks are not `@Sendable`, and every crossing between threads
// (the callback queue, the thread that interrupts) is explained where it happens.
@preconcurrency import ReactiveSwift

// `provider.reactive`, as in Moya 15.
extension MoyaProvider: ReactiveExtensionsProvider {}

extension Reactive where Base: MoyaProviderType {
    /// A producer that sends `token`'s request each time it is started, sends its `Response`
    /// and completes, or fails with its `MoyaError`.
    ///
    /// Nothing is sent before `start`; each start sends its own request, and interrupting (or
    /// disposing of) it cancels that request, after which the observer hears nothing more.
    /// Events arrive where the callback API's completion runs: on `callbackQueue`, else the
    /// provider's callback queue, else the main queue — or, for an immediate stub with no queue,
    /// inside `start`, as in Moya 15. Use `observe(on:)` to move them elsewhere.
    ///
    /// - Parameters:
    ///   - token: The target to request.
    ///   - callbackQueue: The queue events arrive on; `nil` for the provider's.
    /// - Returns: A cold producer of the response.
    public func request(
        _ token: Base.Target,
        callbackQueue: DispatchQueue? = nil
    ) -> SignalProducer<Response, MoyaError> {
        // The producer holds the provider, as `requestPublisher` does: a start must not depend
        // on the caller keeping the provider, whose release cancels its requests.
        let provider = base
        return SignalProducer { observer, lifetime in
            let cancellable = provider.request(token, callbackQueue: callbackQueue, progress: nil) { result in
                // A `Signal.Observer` serializes its events itself, whatever the thread.
                withExtendedLifetime(provider) {
                    switch result {
                    case .success(let response):
                        observer.send(value: response)
                        observer.sendCompleted()
                    case .failure(let error):
                        observer.send(error: error)
                    }
                }
            }
            // The lifetime may end on any thread; `Cancellable` is `Sendable` and the provider
            // then completes with the cancelled error, which the interrupted observer drops.
            lifetime.observeEnded { cancellable.cancel() }
        }
    }

    /// A producer that sends `token`'s request each time it is started, sends its progress,
    /// then a last `ProgressResponse` carrying the response, and completes; or fails with the
    /// request's `MoyaError`.
    ///
    /// An event without a `progressObject` keeps the previous event's, as in Moya 15.
    /// Interrupting cancels the request; events arrive as `request(_:callbackQueue:)`'s do.
    ///
    /// - Parameters:
    ///   - token: The target to request.
    ///   - callbackQueue: The queue events arrive on; `nil` for the provider's.
    /// - Returns: A cold producer of progress events.
    public func requestWithProgress(
        _ token: Base.Target,
        callbackQueue: DispatchQueue? = nil
    ) -> SignalProducer<ProgressResponse, MoyaError> {
        // As above: the provider lives until the request ends.
        let provider = base
        return SignalProducer { observer, lifetime in
            let relay = ProgressRelay(observer: observer)
            let cancellable = provider.request(
                token,
                callbackQueue: callbackQueue,
                progress: { relay.progress($0) }
            ) { result in
                withExtendedLifetime(provider) {
                    relay.end(result)
                }
            }
            lifetime.observeEnded { cancellable.cancel() }
        }
    }
}

extension ProgressRelay {
    /// A relay to a signal's observer.
    convenience init(observer: Signal<ProgressResponse, MoyaError>.Observer) {
        self.init(
            value: { observer.send(value: $0) },
            completed: { observer.sendCompleted() },
            failed: { observer.send(error: $0) }
        )
    }
}
#endif
