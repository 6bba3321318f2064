extension ResilienceGate.State {
    /// One key's state.
    struct Host {
        var breaker: CircuitBreaker.StateMachine?
        var limit: ConcurrencyLimit.StateMachine?
        var rate: RateLimit.StateMachine?
        var lastUsed: Double

        /// Whether nothing here needs keeping at `now`: nothing in flight or waiting, the
        /// breaker closed, the bucket full, and no use for `idleAfter` seconds.
        func isIdle(now: Double, idleAfter: Double) -> Bool {
            now - lastUsed >= idleAfter && (breaker?.isClosed ?? true) && (limit?.isIdle ?? true)
                && (rate?.isIdle(now: now) ?? true)
        }

        /// Admits an attempt at `now`, in the order the policies run: the breaker, the rate
        /// limit, the concurrency limit; `waiter` is the id it waits under if it must. Returns
        /// the breaker's new state when admitting changed it.
        ///
        /// Each policy's state is changed where it is stored, never copied out and back: a
        /// copy would share the breaker's window with the stored one, and the next change
        /// would copy the window.
        mutating func admit(waiter: Int, now: Double) -> (Admission, CircuitBreaker.State?) {
            lastUsed = now
            let before = breaker?.phase
            let decision = breaker?.admit(now: now)
            let changed = breaker?.phase == before ? nil : breaker?.phase
            var trial = false
            switch decision {
            case .reject(let retryAt)?:
                return (.circuitOpen(retryAt: retryAt), changed)
            case .allow(let isTrial)?:
                trial = isTrial
            case nil:
                break
            }
            var wait = 0.0
            switch rate?.reserve(now: now) {
            case .refuse(let seconds)?:
                if trial { breaker?.abandonTrial() }
                return (.rateLimited(retryAt: now + seconds), changed)
            case .go(let seconds)?:
                wait = seconds
            case nil:
                break
            }
            switch limit?.acquire(waiter) {
            case .acquired?:
                return (.go(wait: wait, trial: trial, place: .held), changed)
            case .queued?:
                return (.go(wait: wait, trial: trial, place: .queued), changed)
            case .rejected?:
                if trial { breaker?.abandonTrial() }
                return (.lineFull, changed)
            case nil:
                return (.go(wait: wait, trial: trial, place: .unlimited), changed)
            }
        }

        /// An attempt admitted here ended (see `State.release`). Returns the waiter given its
        /// place, if any, and the breaker's new state when the outcome changed it.
        mutating func release(_ ended: Ended, now: Double) -> (next: Int?, changed: CircuitBreaker.State?) {
            lastUsed = now
            let before = breaker?.phase
            if let outcome = ended.outcome {
                breaker?.record(outcome, duration: ended.duration, trial: ended.trial, now: now)
            } else if ended.trial {
                breaker?.abandonTrial()
            }
            let changed = breaker?.phase == before ? nil : breaker?.phase
            if let hints = ended.hints {
                rate?.follow(hints, now: now)
            }
            return (ended.heldPlace ? limit?.release() : nil, changed)
        }
    }
}
