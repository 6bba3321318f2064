import AsyncHTTPClient
import NIOConcurrencyHelpers
import NIOCore

/// Fails a transfer when no bytes move, either way, for its idle timeout (URLSession's
/// `timeoutInterval`), and, when it is given one, when its whole-request deadline passes.
///
/// AsyncHTTPClient's read timeout counts only bytes read, so a slow upload would not count as
/// activity. Its own deadline (`execute(…deadline:)`) would cost a timer of its own per request,
/// next to this one: one timer enforces both here (`TransferScope` says when). A streamed
/// transfer stops the idle clock while its reader holds it back (`pause()`).
///
/// Runs `StateMachine`'s rules with one timer on the request's event loop. Calls come from the
/// event loop and from the threads that start the request or read it, hence the lock. A value
/// around the lock's box, so that a watch costs one allocation, not two.
struct IdleTimeoutWatch: Sendable {
    private struct State {
        var machine: StateMachine
        var timer: Scheduled<Void>?
    }

    private let state: NIOLockedValueBox<State>

    /// - Parameter deadline: When the whole request must have finished, for this watch to
    ///   enforce; `nil` when AsyncHTTPClient enforces it, or when there is no limit.
    init(idleTimeout: TimeAmount, deadline: NIODeadline? = nil) {
        self.state = NIOLockedValueBox(State(machine: StateMachine(idleTimeout: idleTimeout, deadline: deadline)))
    }

    /// The request was handed to the client: a deadline starts counting, connection or not.
    func start<Response>(task: HTTPClient.Task<Response>) {
        let now = NIODeadline.now()
        perform(state.withLockedValue { $0.machine.start(at: now) }, task: task)
    }

    /// Records that bytes moved, or that reading resumed after a pause.
    func bytesMoved<Response>(task: HTTPClient.Task<Response>) {
        let now = NIODeadline.now()
        perform(state.withLockedValue { $0.machine.bytesMoved(at: now) }, task: task)
    }

    /// The reader holds the transfer back: the idle clock stops until bytes move again.
    func pause() {
        state.withLockedValue { $0.machine.pause() }
    }

    /// The transfer ended: the timer goes, and nothing fails it any more.
    func stop() {
        let timer = state.withLockedValue { state -> Scheduled<Void>? in
            defer { state.timer = nil }
            switch state.machine.finish() {
            case .none:
                return nil
            case .cancelTimer:
                return state.timer
            }
        }
        timer?.cancel()
    }

    private func perform<Response>(_ action: StateMachine.Action, task: HTTPClient.Task<Response>) {
        switch action {
        case .none:
            break
        case .scheduleCheck(let deadline):
            let timer = task.eventLoop.scheduleTask(deadline: deadline) {
                self.timerFired(task)
            }
            let action = state.withLockedValue { state -> StateMachine.TimerScheduledAction in
                let action = state.machine.timerScheduled()
                if action == .keep {
                    state.timer = timer
                }
                return action
            }
            if action == .cancel {
                timer.cancel()
            }
        case .fail(.idle):
            let idleTimeout = state.withLockedValue { $0.machine.idleTimeout }
            let seconds = Double(idleTimeout.nanoseconds) / 1e9
            task.fail(reason: TransferTimeout(limit: .idle, seconds: seconds).asURLError)
        case .fail(.wholeRequest):
            // AsyncHTTPClient's own error for its deadline, failed the way its timer fails the
            // task: the transport explains it as it always has (`TransferScope.explaining`).
            task.fail(reason: HTTPClientError.deadlineExceeded)
        }
    }

    private func timerFired<Response>(_ task: HTTPClient.Task<Response>) {
        let now = NIODeadline.now()
        let action = state.withLockedValue { state in
            state.timer = nil
            return state.machine.timerFired(at: now)
        }
        perform(action, task: task)
    }
}
