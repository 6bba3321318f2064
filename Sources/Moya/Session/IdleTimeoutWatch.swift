import AsyncHTTPClient
import NIOConcurrencyHelpers
import NIOCore

/// Fails a transfer when no bytes move, either way, for its idle timeout: URLSession's
/// `timeoutInterval`. AsyncHTTPClient's read timeout counts only bytes read, so a slow upload
/// would not count as activity.
///
/// Runs `StateMachine`'s rules with one timer on the request's event loop. Calls come from
/// the event loop and from the thread that started the request, hence the lock.
final class IdleTimeoutWatch: Sendable {
    private struct State {
        var machine: StateMachine
        var timer: Scheduled<Void>?
    }

    private let state: NIOLockedValueBox<State>

    init(idleTimeout: TimeAmount) {
        self.state = NIOLockedValueBox(State(machine: StateMachine(idleTimeout: idleTimeout)))
    }

    /// Records that bytes moved; arms the timer the first time.
    func bytesMoved<Response>(task: HTTPClient.Task<Response>) {
        let now = NIODeadline.now()
        let action = state.withLockedValue { $0.machine.bytesMoved(at: now) }
        switch action {
        case .none:
            break
        case .scheduleCheck(let deadline):
            scheduleCheck(task, at: deadline)
        }
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

    private func scheduleCheck<Response>(_ task: HTTPClient.Task<Response>, at deadline: NIODeadline) {
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
    }

    private func timerFired<Response>(_ task: HTTPClient.Task<Response>) {
        let now = NIODeadline.now()
        let (action, idleTimeout) = state.withLockedValue { state in
            state.timer = nil
            return (state.machine.timerFired(at: now), state.machine.idleTimeout)
        }
        switch action {
        case .none:
            break
        case .scheduleCheck(let deadline):
            scheduleCheck(task, at: deadline)
        case .fail:
            let seconds = Double(idleTimeout.nanoseconds) / 1e9
            task.fail(reason: TransferTimeout(limit: .idle, seconds: seconds).asURLError)
        }
    }
}
