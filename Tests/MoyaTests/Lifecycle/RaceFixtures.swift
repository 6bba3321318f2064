import Foundation

@testable import Moya

/// A point in a test's script: one side waits at it until the test opens it, and the test can
/// wait until someone has arrived.
final class Gate: Sendable {
    private struct State {
        var isOpen = false
        var arrived = false
        var waiting: [CheckedContinuation<Void, Never>] = []
        var watching: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Synchronized(State())

    /// Arrives, then waits until the gate is opened.
    func wait() async {
        await withCheckedContinuation { continuation in
            let (resumeNow, watchers) = state.update { state in
                state.arrived = true
                defer { state.watching = [] }
                if !state.isOpen {
                    state.waiting.append(continuation)
                }
                return (state.isOpen, state.watching)
            }
            for watcher in watchers {
                watcher.resume()
            }
            if resumeNow {
                continuation.resume()
            }
        }
    }

    /// Lets every waiter through, now and later.
    func open() {
        let waiting = state.update { state in
            state.isOpen = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for waiter in waiting {
            waiter.resume()
        }
    }

    /// Returns once someone has arrived at the gate.
    func entered() async {
        await withCheckedContinuation { continuation in
            let arrived = state.update { state in
                if !state.arrived {
                    state.watching.append(continuation)
                }
                return state.arrived
            }
            if arrived {
                continuation.resume()
            }
        }
    }
}

/// An asynchronous plugin whose `prepare` waits at its gate until its task is cancelled.
struct WaitingPlugin: AsyncPluginType {
    let gate = Gate()
    let sawCancellation = Synchronized(false)

    func prepare(_ request: URLRequest, target: TargetType) async throws -> URLRequest {
        await withTaskCancellationHandler {
            await gate.wait()
        } onCancel: {
            sawCancellation.update { $0 = true }
            gate.open()
        }
        return request
    }
}

/// Decides retries from a list, attempt by attempt (then `.doNotRetry`); when gated, each
/// decision waits at the gate first.
struct ScriptedRetrier: RequestInterceptor {
    let decisions: [RetryResult]
    var gated = false
    let gate = Gate()

    func retry(
        _ request: URLRequest,
        for target: TargetType,
        attempt: Int,
        dueTo result: Result<Response, MoyaError>
    ) async -> RetryResult {
        if gated {
            await gate.wait()
        }
        return attempt <= decisions.count ? decisions[attempt - 1] : .doNotRetry
    }
}

extension ScriptedTransport {
    /// The handle of the latest attempt.
    var lastHandle: ScriptedHandle? {
        lastSend?.handle
    }
}

extension RequestLifecycle {
    /// Returns once the machine's phase satisfies `reached`. The machine's state is what is
    /// waited for, not time: the loop only lets the lifecycle's tasks run.
    func phaseReached(_ reached: @Sendable (StateMachine.Phase) -> Bool) async {
        while !machine.withLockedValue({ reached($0.phase) }) {
            await _Concurrency.Task.yield()
        }
    }
}
