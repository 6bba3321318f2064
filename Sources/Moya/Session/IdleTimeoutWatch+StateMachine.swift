import NIOCore

extension IdleTimeoutWatch {
    /// The idle timeout's rules, apart from any clock, timer or lock so that they can be tested
    /// alone: when the watch starts, when it checks again, and when it gives up.
    ///
    /// One timer per transfer, armed when bytes first move: a chunk only records when it
    /// arrived, and the timer, when it fires, either fails the transfer or checks again when
    /// the idle time would run out. Rescheduling a timer for every chunk would cost a trip
    /// through the event loop's timer queue per read.
    struct StateMachine {
        private enum State {
            /// No bytes have moved yet: nothing to watch.
            case waiting
            /// A timer is set; bytes last moved at `lastActivity`.
            case watching(lastActivity: NIODeadline)
            /// The transfer ended, or timed out: nothing is watched any more.
            case finished
        }

        /// What the caller does after bytes moved.
        enum BytesMovedAction: Equatable {
            case none
            /// Arm the timer, to fire at the deadline.
            case scheduleCheck(at: NIODeadline)
        }

        /// What the caller does when the timer fires.
        enum TimerFiredAction: Equatable {
            case none
            /// Bytes moved meanwhile: check again at the deadline.
            case scheduleCheck(at: NIODeadline)
            /// Nothing moved for the idle timeout: fail the transfer.
            case fail
        }

        /// What the caller does with a timer it has just set.
        enum TimerScheduledAction: Equatable {
            /// Keep it, to cancel it when the transfer ends.
            case keep
            /// The transfer ended while the timer was being set: cancel it now.
            case cancel
        }

        /// What the caller does when the transfer ends.
        enum FinishAction: Equatable {
            case none
            /// Cancel the timer that is set.
            case cancelTimer
        }

        let idleTimeout: TimeAmount
        private var state = State.waiting

        init(idleTimeout: TimeAmount) {
            self.idleTimeout = idleTimeout
        }

        /// Bytes moved at `now`: the first time arms the timer; after that only the time is noted.
        mutating func bytesMoved(at now: NIODeadline) -> BytesMovedAction {
            switch state {
            case .waiting:
                state = .watching(lastActivity: now)
                return .scheduleCheck(at: now + idleTimeout)
            case .watching:
                state = .watching(lastActivity: now)
                return .none
            case .finished:
                return .none
            }
        }

        /// The caller set the timer the last action asked for.
        func timerScheduled() -> TimerScheduledAction {
            switch state {
            case .waiting, .watching:
                return .keep
            case .finished:
                return .cancel
            }
        }

        /// The timer fired at `now`. It fails the transfer once, and only when no bytes moved
        /// for the whole idle timeout; a timer that fires after the transfer ended does nothing.
        mutating func timerFired(at now: NIODeadline) -> TimerFiredAction {
            switch state {
            case .waiting, .finished:
                return .none
            case .watching(let lastActivity):
                let idleUntil = lastActivity + idleTimeout
                guard idleUntil <= now else {
                    return .scheduleCheck(at: idleUntil)
                }
                state = .finished
                return .fail
            }
        }

        /// The transfer ended, with its response or an error.
        mutating func finish() -> FinishAction {
            switch state {
            case .waiting, .finished:
                state = .finished
                return .none
            case .watching:
                state = .finished
                return .cancelTimer
            }
        }
    }
}
