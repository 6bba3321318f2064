import NIOCore

extension StreamIdleWatch {
    /// The idle timeout of a streamed response, apart from clocks and timers: the transfer
    /// fails when no bytes move for the idle timeout *while the reader is waiting*. While the
    /// reader holds the transfer back (back-pressure), the server is not at fault and the
    /// clock stops; it starts again, from zero, when reading resumes.
    ///
    /// One timer at a time, as in `IdleTimeoutWatch`: bytes only record when they moved, and
    /// the timer, when it fires, fails the transfer or checks again later.
    struct StateMachine {
        private enum State {
            /// No bytes have moved yet.
            case waiting
            case watching(lastActivity: NIODeadline, timerArmed: Bool)
            /// The reader holds the transfer back.
            case paused(timerArmed: Bool)
            case finished
        }

        /// What the caller does next.
        enum Action: Equatable {
            case none
            /// Arm the timer, to fire at the deadline.
            case scheduleCheck(at: NIODeadline)
            /// Nothing moved for the idle timeout: fail the transfer.
            case fail
            /// Cancel the timer that is set.
            case cancelTimer
        }

        let idleTimeout: TimeAmount
        private var state = State.waiting

        init(idleTimeout: TimeAmount) {
            self.idleTimeout = idleTimeout
        }

        /// Bytes moved at `now` (or reading resumed): the clock starts again.
        mutating func bytesMoved(at now: NIODeadline) -> Action {
            switch state {
            case .waiting:
                state = .watching(lastActivity: now, timerArmed: true)
                return .scheduleCheck(at: now + idleTimeout)
            case .watching(_, let armed), .paused(let armed):
                state = .watching(lastActivity: now, timerArmed: true)
                return armed ? .none : .scheduleCheck(at: now + idleTimeout)
            case .finished:
                return .none
            }
        }

        /// The reader holds the transfer back: the clock stops.
        mutating func pause() {
            switch state {
            case .waiting:
                state = .paused(timerArmed: false)
            case .watching(_, let armed):
                state = .paused(timerArmed: armed)
            case .paused, .finished:
                break
            }
        }

        /// Whether a timer just set should be kept (`false`: the transfer ended meanwhile).
        func keepsTimer() -> Bool {
            if case .finished = state {
                return false
            }
            return true
        }

        /// The timer fired at `now`.
        mutating func timerFired(at now: NIODeadline) -> Action {
            switch state {
            case .waiting, .finished:
                return .none
            case .paused:
                state = .paused(timerArmed: false)
                return .none
            case .watching(let lastActivity, _):
                let idleUntil = lastActivity + idleTimeout
                guard idleUntil <= now else {
                    return .scheduleCheck(at: idleUntil)
                }
                state = .finished
                return .fail
            }
        }

        /// The transfer ended.
        mutating func finish() -> Action {
            defer { state = .finished }
            switch state {
            case .watching(_, true), .paused(true):
                return .cancelTimer
            default:
                return .none
            }
        }
    }
}
