import Foundation

/// Passes a request's progress and end to a reactive observer, one event at a time and in the
/// order a `ProgressResponse` sequence promises: progress, at most one completed
/// `ProgressResponse`, then the end. `RxMoya` and `ReactiveMoya` share it (hence `package`),
/// each handing over its observer's three calls.
///
/// The provider runs progress blocks and the completion on the callback queue; a concurrent
/// queue may run two of them at once, which an observer must never see, and this type's own
/// state (the last progress, whether the response went out) must be read and written with the
/// event it decides: both happen under `lock`. The lock is recursive because an observer may
/// dispose of its subscription from inside a value event, and cancelling may end the request
/// on the same thread.
///
/// - Note: `@unchecked Sendable` because its mutable state is read and written under `lock`
///   only, and the observer's calls, which RxSwift and ReactiveSwift do not annotate, are made
///   under it too.
package final class ProgressRelay: @unchecked Sendable {
    private let lock = NSRecursiveLock()
    private let sendValue: (ProgressResponse) -> Void
    private let sendCompleted: () -> Void
    private let sendFailure: (MoyaError) -> Void
    /// The last progress seen, carried into events that have none.
    private var lastProgress: Progress?
    /// Whether the completed `ProgressResponse` went out: nothing but the end may follow it.
    private var sentResponse = false
    /// Whether the sequence ended: nothing may follow.
    private var ended = false

    /// A relay to an observer's value, completion and failure events.
    package init(
        value: @escaping (ProgressResponse) -> Void,
        completed: @escaping () -> Void,
        failed: @escaping (MoyaError) -> Void
    ) {
        self.sendValue = value
        self.sendCompleted = completed
        self.sendFailure = failed
    }

    /// A progress event from the provider; the last one carries the response.
    package func progress(_ event: ProgressResponse) {
        lock.lock()
        defer { lock.unlock() }
        guard !ended, !sentResponse else { return }
        emit(event)
    }

    /// The request's result: the completed event if the provider sent none, then the end.
    package func end(_ result: Result<Response, MoyaError>) {
        lock.lock()
        defer { lock.unlock() }
        guard !ended else { return }
        switch result {
        case .success(let response):
            if !sentResponse {
                emit(ProgressResponse(response: response))
            }
            ended = true
            sendCompleted()
        case .failure(let error):
            ended = true
            sendFailure(error)
        }
    }

    /// Sends `event`, with the last known progress when it has none. Called under `lock`.
    private func emit(_ event: ProgressResponse) {
        let progress = event.progressObject ?? lastProgress
        lastProgress = progress
        sentResponse = event.completed
        sendValue(ProgressResponse(progress: progress, response: event.response))
    }
}
