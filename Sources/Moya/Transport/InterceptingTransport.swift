import Foundation
import NIOConcurrencyHelpers

/// Runs a request through a `RequestInterceptor`: adapts each attempt, sends it with the
/// underlying transport, and asks whether to try again, waiting between attempts as told.
///
/// Every attempt goes through the base transport from the top, so a body is rebuilt from the
/// target's `Task` each time.
struct InterceptingTransport: Transport {
    let base: Transport
    let interceptor: RequestInterceptor
    let target: UserValue<TargetType>

    func send(_ exchange: Exchange, events: TransportEvents) -> TransportHandle {
        let handle = RetryingHandle()
        let work = _Concurrency.Task {
            let result = await run(exchange, events: events, handle: handle)
            if let result {
                events.completion(result)
            }
            handle.stopped()
        }
        handle.setWork(work)
        return handle
    }

    /// The final outcome, or `nil` when the request was cancelled.
    private func run(
        _ exchange: Exchange,
        events: TransportEvents,
        handle: RetryingHandle
    ) async -> Result<Response, MoyaError>? {
        let interceptor = self.interceptor
        let target = self.target
        let request = exchange.request
        var attempt = 0
        while true {
            attempt += 1
            var current = exchange
            // Each wait on the interceptor ends at once when the request is cancelled, even if
            // the interceptor's own work (a token refresh, say) goes on for other requests.
            let adapted = await CancellableWait.value { () -> Result<URLRequest, Error> in
                do {
                    return .success(try await interceptor.adapt(request, for: target.value))
                } catch {
                    return .failure(error)
                }
            }
            switch adapted {
            case nil:
                return nil
            case .failure(let error):
                return .failure(MoyaError.wrapping(error))
            case .success(let request):
                current.request = request
            }
            if let problem = HeaderValidation.problem(in: current.request) {
                return .failure(.underlying(problem, nil))
            }
            guard let result = await sendOnce(current, events: events, handle: handle) else {
                return nil
            }

            let sent = current.request
            let attemptNumber = attempt
            let decision = await CancellableWait.value {
                await interceptor.retry(sent, for: target.value, attempt: attemptNumber, dueTo: result)
            }
            switch decision {
            case nil:
                return nil
            case .doNotRetry:
                return result
            case .doNotRetryWithError(let error):
                return .failure(error)
            case .retry:
                continue
            case .retryWithDelay(let seconds):
                guard seconds > 0 else { continue }
                do {
                    try await _Concurrency.Task.sleep(nanoseconds: UInt64(min(seconds, 86_400) * 1e9))
                } catch {
                    return nil
                }
            }
        }
    }

    /// One attempt through the base transport; `nil` when it was cancelled.
    private func sendOnce(
        _ exchange: Exchange,
        events: TransportEvents,
        handle: RetryingHandle
    ) async -> Result<Response, MoyaError>? {
        await withCheckedContinuation { continuation in
            let resume = ResumeOnce(continuation)
            let attemptEvents = TransportEvents(
                wantsProgress: events.wantsProgress,
                progress: events.progress,
                completion: { resume($0) }
            )
            let inner = base.send(exchange, events: attemptEvents)
            handle.attemptStarted(inner, onCancelled: { resume(nil) })
        }
    }
}

/// Resumes a continuation with the first value it is given and ignores the rest: an attempt
/// ends either with its transport's completion or with a cancel, whichever comes first.
private final class ResumeOnce: Sendable {
    private let continuation: NIOLockedValueBox<CheckedContinuation<Result<Response, MoyaError>?, Never>?>

    init(_ continuation: CheckedContinuation<Result<Response, MoyaError>?, Never>) {
        self.continuation = NIOLockedValueBox(continuation)
    }

    func callAsFunction(_ value: Result<Response, MoyaError>?) {
        let continuation = self.continuation.withLockedValue { stored in
            defer { stored = nil }
            return stored
        }
        continuation?.resume(returning: value)
    }
}

/// Cancels the attempt in flight and the waits between attempts, and tells who cancelled once
/// the whole run has stopped.
private final class RetryingHandle: TransportHandle {
    private struct State {
        var work: _Concurrency.Task<Void, Never>?
        var attempt: (handle: TransportHandle, onCancelled: @Sendable () -> Void)?
        var cancelled = false
    }

    private let state = NIOLockedValueBox(State())
    private let stopSignal = StopSignal()

    func setWork(_ work: _Concurrency.Task<Void, Never>) {
        let cancelled = state.withLockedValue { state in
            state.work = work
            return state.cancelled
        }
        if cancelled {
            work.cancel()
        }
    }

    /// Records the attempt in flight, cancelling it at once if the run was cancelled already.
    func attemptStarted(_ handle: TransportHandle, onCancelled: @escaping @Sendable () -> Void) {
        let cancelled = state.withLockedValue { state in
            state.attempt = (handle, onCancelled)
            return state.cancelled
        }
        if cancelled {
            handle.cancel(then: onCancelled)
        }
    }

    func cancel(then stopped: @escaping @Sendable () -> Void) {
        let (work, attempt) = state.withLockedValue { state in
            let first = !state.cancelled
            state.cancelled = true
            return (state.work, first ? state.attempt : nil)
        }
        work?.cancel()
        if let attempt {
            attempt.handle.cancel(then: attempt.onCancelled)
        }
        stopSignal.whenStopped(stopped)
    }

    /// The run has ended: no attempt or wait is left.
    func stopped() {
        stopSignal.stop()
    }
}
