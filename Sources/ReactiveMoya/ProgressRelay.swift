#if ReactiveMoya
import Foundation
import Moya
// ReactiveSwift's `Signal.Observer` is not annotated for Sendable, though it is safe to call
// from any thread: a signal serializes its events.
@preconcurrency import ReactiveSwift

/// Passes a request's progress and end to an observer in the order a `ProgressResponse`
/// stream promises: progress, at most one completed `ProgressResponse`, then the end.
///
/// The provider runs progress blocks and the completion on the callback queue; a concurrent
/// queue may run two of them at once. The signal would serialize them, but this type's own
/// state (the last progress, whether the response went out) must be read and written with the
/// event it decides, so both happen under `lock`. The lock is recursive because an observer may
/// interrupt from inside a value event, and cancelling may end the request on the same thread.
///
/// - Note: `@unchecked Sendable` because its mutable state is read and written under `lock`
///   only, and the observer is called under it too.
final class ProgressRelay: @unchecked Sendable {
    private let lock = NSRecursiveLock()
    private let observer: Signal<ProgressResponse, MoyaError>.Observer
    /// The last progress seen, carried into events that have none.
    private var lastProgress: Progress?
    /// Whether the completed `ProgressResponse` went out: nothing but the end may follow it.
    private var sentResponse = false
    /// Whether the sequence ended: nothing may follow.
    private var ended = false

    init(observer: Signal<ProgressResponse, MoyaError>.Observer) {
        self.observer = observer
    }

    /// A progress event from the provider; the last one carries the response.
    func progress(_ event: ProgressResponse) {
        lock.lock()
        defer { lock.unlock() }
        guard !ended, !sentResponse else { return }
        emit(event)
    }

    /// The request's result: the completed event if the provider sent none, then the end.
    func end(_ result: Result<Response, MoyaError>) {
        lock.lock()
        defer { lock.unlock() }
        guard !ended else { return }
        switch result {
        case .success(let response):
            if !sentResponse {
                emit(ProgressResponse(response: response))
            }
            ended = true
            observer.sendCompleted()
        case .failure(let error):
            ended = true
            observer.send(error: error)
        }
    }

    /// Sends `event`, with the last known progress when it has none. Called under `lock`.
    private func emit(_ event: ProgressResponse) {
        let progress = event.progressObject ?? lastProgress
        lastProgress = progress
        sentResponse = event.completed
        observer.send(value: ProgressResponse(progress: progress, response: event.response))
    }
}
#endif
