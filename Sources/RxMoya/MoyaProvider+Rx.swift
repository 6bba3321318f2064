#if RxMoya
import Foundation
import Moya
// RxSwift has no Sendable annotations. The closures below cross no isolation boundary the
// compiler sees: the provider's callbacks are not `@Sendable`, and every crossing between threads
// (the callback queue, the thread that disposes) is explained where it happens.
@preconcurrency import RxSwift

// `provider.rx`, as in Moya 15.
extension MoyaProvider: ReactiveCompatible {}

extension Reactive where Base: MoyaProviderType {
    /// A `Single` that sends `token`'s request when subscribed to and succeeds with its
    /// `Response`, or fails with its `MoyaError`.
    ///
    /// Nothing is sent before a subscription; each subscription sends its own request, and
    /// disposing of it cancels that request, after which the subscriber hears nothing more.
    /// The event arrives where the callback API's completion runs: on `callbackQueue`, else the
    /// provider's callback queue, else the main queue — or, for an immediate stub with no queue,
    /// inside `subscribe`, as in Moya 15. Use `observe(on:)` to move it elsewhere.
    ///
    /// - Parameters:
    ///   - token: The target to request.
    ///   - callbackQueue: The queue the event arrives on; `nil` for the provider's.
    /// - Returns: A cold `Single` of the response.
    public func request(_ token: Base.Target, callbackQueue: DispatchQueue? = nil) -> Single<Response> {
        // The Single holds the provider, as `requestPublisher` does: a subscription must not
        // depend on the caller keeping the provider, whose release cancels its requests.
        let provider = base
        return Single.create { single in
            let cancellable = provider.request(token, callbackQueue: callbackQueue, progress: nil) { result in
                // The completion runs once, so `single` is called once: no two threads call it.
                withExtendedLifetime(provider) {
                    single(result.mapError { $0 as Swift.Error })
                }
            }
            // Disposing may happen on any thread; `Cancellable` is `Sendable` and the provider
            // then completes with the cancelled error, which the disposed Single drops.
            return Disposables.create { cancellable.cancel() }
        }
    }

    /// An `Observable` that sends `token`'s request when subscribed to, emits its progress,
    /// then a last `ProgressResponse` carrying the response, and completes; or fails with the
    /// request's `MoyaError`.
    ///
    /// An event without a `progressObject` keeps the previous event's, as in Moya 15. Disposing
    /// of the subscription cancels the request; events arrive as `request(_:callbackQueue:)`'s
    /// do.
    ///
    /// - Parameters:
    ///   - token: The target to request.
    ///   - callbackQueue: The queue events arrive on; `nil` for the provider's.
    /// - Returns: A cold `Observable` of progress events.
    public func requestWithProgress(
        _ token: Base.Target,
        callbackQueue: DispatchQueue? = nil
    ) -> Observable<ProgressResponse> {
        // As above: the provider lives until the request ends.
        let provider = base
        return Observable.create { observer in
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
            return Disposables.create { cancellable.cancel() }
        }
    }
}

extension ProgressRelay {
    /// A relay to an Rx observer.
    convenience init(observer: AnyObserver<ProgressResponse>) {
        self.init(
            value: { observer.onNext($0) },
            completed: { observer.onCompleted() },
            failed: { observer.onError($0) }
        )
    }
}
#endif
