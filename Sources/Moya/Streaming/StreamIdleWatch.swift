import AsyncHTTPClient
import NIOConcurrencyHelpers
import NIOCore

/// Fails a streamed transfer when no bytes move for its idle timeout while its reader waits
/// (see `StateMachine`), with URLSession's timed-out error. One timer, on the request's event
/// loop; calls come from that loop and from the reader's thread, hence the lock.
final class StreamIdleWatch: Sendable {
    private struct State {
        var machine: StateMachine
        var timer: Scheduled<Void>?
    }

    private let state: NIOLockedValueBox<State>

    init(idleTimeout: TimeAmount) {
        self.state = NIOLockedValueBox(State(machine: StateMachine(idleTimeout: idleTimeout)))
    }

    /// Bytes moved, or reading resumed after a pause.
    func bytesMoved<Response>(task: HTTPClient.Task<Response>) {
        let now = NIODeadline.now()
        perform(state.withLockedValue { $0.machine.bytesMoved(at: now) }, task: task)
    }

    /// The reader holds the transfer back.
    func pause() {
        state.withLockedValue { $0.machine.pause() }
    }

    /// The transfer ended.
    func stop() {
        let timer = state.withLockedValue { state -> Scheduled<Void>? in
            defer { state.timer = nil }
            return state.machine.finish() == .cancelTimer ? state.timer : nil
        }
        timer?.cancel()
    }

    private func perform<Response>(_ action: StateMachine.Action, task: HTTPClient.Task<Response>) {
        switch action {
        case .none, .cancelTimer:
            break
        case .scheduleCheck(let deadline):
            let timer = task.eventLoop.scheduleTask(deadline: deadline) { [self] in
                timerFired(task)
            }
            let keep = state.withLockedValue { state in
                let keep = state.machine.keepsTimer()
                if keep {
                    state.timer = timer
                }
                return keep
            }
            if !keep {
                timer.cancel()
            }
        case .fail:
            let seconds = Double(state.withLockedValue { $0.machine.idleTimeout }.nanoseconds) / 1e9
            task.fail(reason: TransferTimeout(limit: .idle, seconds: seconds).asURLError)
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
