import NIOCore

extension IdleTimeoutWatch {
    /// A transfer's time limits, apart from any clock, timer or lock so that they can be tested
    /// alone: when the watch arms its timer, when it checks again, and when it gives up.
    ///
    /// Two limits share one timer:
    ///
    /// - **Idle.** The transfer fails when no bytes move, either way, for the idle timeout. The
    ///   clock starts with the first bytes (waiting for a connection is bounded by
    ///   `ConnectionWait`, not by this), and stops while the reader of a streamed response
    ///   holds the transfer back (back-pressure: the server is not at fault); it starts again,
    ///   from zero, when reading resumes.
    /// - **Deadline.** When given one, the transfer fails once it passes, whatever it is doing.
    ///   Its timer is the idle one, set by the first bytes, not when the request is handed to
    ///   the client: until then the request waits for a connection, and the pool gives up on
    ///   that wait sooner than any deadline the watch is given (`TransferScope.deadlines`), so
    ///   a timer set from the caller's thread, which can wake the event loop, would buy nothing.
    ///
    /// One timer per transfer, never moved: bytes only record when they moved, and the timer,
    /// when it fires, either fails the transfer or checks again when a limit would next run out.
    /// Rescheduling a timer for every chunk would cost a trip through the event loop's timer
    /// queue per read. So that no event ever needs an earlier timer than the one set, a timer is
    /// always set no later than the earliest either limit could run out: when bytes have not
    /// moved yet (or the clock is stopped), that is one idle timeout from now, or the deadline
    /// when sooner, since bytes moving now would start the idle clock from now.
    struct StateMachine {
        private enum State {
            /// No bytes have moved yet; no timer is set.
            case waiting
            /// Bytes last moved at `lastActivity`; a timer is always set.
            case watching(lastActivity: NIODeadline)
            /// The reader holds the transfer back: the idle clock is stopped.
            case paused(timerArmed: Bool)
            /// The transfer ended, or timed out: nothing is watched any more.
            case finished
        }

        /// What the caller does next.
        enum Action: Equatable {
            case none
            /// Set the timer, to fire at the deadline given.
            case scheduleCheck(at: NIODeadline)
            /// A limit ran out: fail the transfer, saying which.
            case fail(TransferTimeout.Limit)
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
        /// When the whole request must have finished; `nil` when another part enforces it, or
        /// when there is no limit.
        let deadline: NIODeadline?
        private var state = State.waiting

        init(idleTimeout: TimeAmount, deadline: NIODeadline? = nil) {
            self.idleTimeout = idleTimeout
            self.deadline = deadline
        }

        /// Bytes moved at `now`, or reading resumed: the idle clock starts again from `now`. The
        /// first time sets the timer.
        mutating func bytesMoved(at now: NIODeadline) -> Action {
            switch state {
            case .waiting:
                state = .watching(lastActivity: now)
                return .scheduleCheck(at: earliestExpiry(ifBytesMoveAt: now))
            case .paused(let armed):
                state = .watching(lastActivity: now)
                return armed ? .none : .scheduleCheck(at: earliestExpiry(ifBytesMoveAt: now))
            case .watching:
                state = .watching(lastActivity: now)
                return .none
            case .finished:
                return .none
            }
        }

        /// The reader holds the transfer back: the idle clock stops.
        mutating func pause() {
            switch state {
            case .waiting:
                state = .paused(timerArmed: false)
            case .watching:
                state = .paused(timerArmed: true)
            case .paused, .finished:
                break
            }
        }

        /// The caller set the timer the last action asked for.
        func timerScheduled() -> TimerScheduledAction {
            if case .finished = state {
                return .cancel
            }
            return .keep
        }

        /// The timer fired at `now`. It fails the transfer once, when a limit has run out; a
        /// timer that fires after the transfer ended does nothing.
        mutating func timerFired(at now: NIODeadline) -> Action {
            switch state {
            case .finished:
                return .none
            case .watching(let lastActivity):
                let idleUntil = lastActivity + idleTimeout
                if let deadline, deadline <= now, deadline <= idleUntil {
                    state = .finished
                    return .fail(.wholeRequest)
                }
                if idleUntil <= now {
                    state = .finished
                    return .fail(.idle)
                }
                return .scheduleCheck(at: deadline.map { min($0, idleUntil) } ?? idleUntil)
            case .waiting:
                // No timer is set before the first bytes: a stale one has nothing to check.
                return .none
            case .paused:
                // The idle clock is not running: only the deadline can have run out.
                guard let deadline else {
                    // Nothing to watch until bytes move again, which sets a new timer.
                    state = .paused(timerArmed: false)
                    return .none
                }
                if deadline <= now {
                    state = .finished
                    return .fail(.wholeRequest)
                }
                return .scheduleCheck(at: earliestExpiry(ifBytesMoveAt: now))
            }
        }

        /// The transfer ended, with its response or an error.
        mutating func finish() -> FinishAction {
            defer { state = .finished }
            switch state {
            case .watching, .paused(timerArmed: true):
                return .cancelTimer
            case .waiting, .paused(timerArmed: false), .finished:
                return .none
            }
        }

        /// The earliest a limit could run out if bytes moved at `now`: one idle timeout later,
        /// or the deadline when sooner.
        private func earliestExpiry(ifBytesMoveAt now: NIODeadline) -> NIODeadline {
            let idleUntil = now + idleTimeout
            guard let deadline else { return idleUntil }
            return min(deadline, idleUntil)
        }
    }
}
