import Foundation

extension ResilienceGate {
    /// Every key's policies and the session's budget, apart from any lock, clock or
    /// continuation, so that the gate's bookkeeping can be tested alone. Times are seconds on a
    /// monotonic clock.
    struct State {
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
        }

        /// What admitting an attempt to a key decided.
        enum Admission: Equatable {
            /// It may go at once, or after `wait` seconds (its rate-limit turn); `trial` when it
            /// is one of the breaker's half-open trials; `place` when it holds a place of the
            /// concurrency limit, `queued` when it must wait for one in line.
            case go(wait: Double, trial: Bool, place: Place)
            case circuitOpen(retryAt: Double)
            case rateLimited(retryAt: Double)
            case lineFull
        }

        /// Where an admitted attempt stands with the concurrency limit.
        enum Place: Equatable {
            /// No limit is set.
            case unlimited
            /// It holds a place.
            case held
            /// It waits in line under this id.
            case queued
        }

        let policies: ResiliencePolicies
        /// A key unused this long, with nothing to keep, is dropped.
        let idleAfter: Double
        private(set) var hosts: [String: Host] = [:]
        private var budget: RetryBudget.StateMachine?
        /// Counted down to the next sweep of idle keys.
        private var untilSweep = 0
        private var lastWaiter = 0
        /// The breakers' changes of state since the gate last took them, oldest first.
        private var breakerChanges: [BreakerChange] = []

        init(policies: ResiliencePolicies, idleAfter: Double = 60) {
            self.policies = policies
            self.idleAfter = idleAfter
            self.budget = policies.retryBudget.map { RetryBudget.StateMachine(settings: $0) }
        }

        /// A new id for an attempt that may have to wait in a concurrency limit's line.
        mutating func nextWaiter() -> Int {
            lastWaiter &+= 1
            return lastWaiter
        }

        /// A request's first attempt was started: the budget counts it.
        mutating func requestStarted(now: Double) {
            budget?.requestSent(now: now)
        }

        /// Whether the budget allows one more retry now; `true` without a budget.
        mutating func mayRetry(now: Double) -> Bool {
            budget?.withdraw(now: now) ?? true
        }

        /// The breakers' changes of state since the last call, oldest first.
        mutating func takeBreakerChanges() -> [BreakerChange] {
            guard !breakerChanges.isEmpty else { return [] }
            defer { breakerChanges = [] }
            return breakerChanges
        }

        /// Runs `body` on `key`'s breaker, noting a change of its state.
        private mutating func changing(
            _ breaker: inout CircuitBreaker.StateMachine,
            of key: String,
            _ body: (inout CircuitBreaker.StateMachine) -> Void
        ) {
            let before = breaker.phase
            body(&breaker)
            if breaker.phase != before {
                breakerChanges.append((key, breaker.phase))
            }
        }

        /// Admits an attempt to `key` at `now`; `waiter` is the id it waits under if it must.
        mutating func admit(key: String, waiter: Int, now: Double) -> Admission {
            sweepIfDue(now: now)
            var host = hosts[key] ?? makeHost(now: now)
            host.lastUsed = now
            defer { hosts[key] = host }
            var trial = false
            if var breaker = host.breaker {
                defer { host.breaker = breaker }
                var admission = CircuitBreaker.StateMachine.Admission.allow(trial: false)
                changing(&breaker, of: key) { admission = $0.admit(now: now) }
                switch admission {
                case .reject(let retryAt):
                    return .circuitOpen(retryAt: retryAt)
                case .allow(let isTrial):
                    trial = isTrial
                }
            }
            var wait = 0.0
            if var rate = host.rate {
                defer { host.rate = rate }
                switch rate.reserve(now: now) {
                case .refuse(let seconds):
                    if trial { host.breaker?.abandonTrial() }
                    return .rateLimited(retryAt: now + seconds)
                case .go(let seconds):
                    wait = seconds
                }
            }
            guard var limit = host.limit else { return .go(wait: wait, trial: trial, place: .unlimited) }
            defer { host.limit = limit }
            switch limit.acquire(waiter) {
            case .acquired:
                return .go(wait: wait, trial: trial, place: .held)
            case .queued:
                return .go(wait: wait, trial: trial, place: .queued)
            case .rejected:
                if trial { host.breaker?.abandonTrial() }
                return .lineFull
            }
        }

        /// Waiter `id` of `key` leaves the line; `false` when it holds a place already.
        mutating func leaveLine(key: String, waiter id: Int) -> Bool {
            hosts[key]?.limit?.leave(id) ?? false
        }

        /// An attempt admitted to `key` ended: `outcome` is `nil` when it was never answered
        /// (cancelled, or refused after admission). Returns the waiter given its place, if any.
        mutating func release(
            key: String,
            heldPlace: Bool,
            trial: Bool,
            outcome: CircuitBreaker.StateMachine.Outcome?,
            duration: Double,
            hints: RateLimitHints.Hints?,
            now: Double
        ) -> Int? {
            guard var host = hosts[key] else { return nil }
            defer { hosts[key] = host }
            host.lastUsed = now
            if let outcome, var breaker = host.breaker {
                changing(&breaker, of: key) { $0.record(outcome, duration: duration, trial: trial, now: now) }
                host.breaker = breaker
            } else if trial {
                host.breaker?.abandonTrial()
            }
            if let hints {
                host.rate?.follow(hints, now: now)
            }
            return heldPlace ? host.limit?.release() : nil
        }

        private func makeHost(now: Double) -> Host {
            Host(
                breaker: policies.circuitBreaker.map { CircuitBreaker.StateMachine(settings: $0) },
                limit: policies.concurrencyLimit.map { ConcurrencyLimit.StateMachine(settings: $0) },
                rate: policies.rateLimit.map { RateLimit.StateMachine(settings: $0) },
                lastUsed: now
            )
        }

        /// Every 256 admissions, drops the keys with nothing to keep, so that memory stays
        /// bounded whatever the number of hosts.
        private mutating func sweepIfDue(now: Double) {
            guard untilSweep <= 0 else {
                untilSweep -= 1
                return
            }
            untilSweep = 256
            let idleAfter = self.idleAfter
            hosts = hosts.filter { !$0.value.isIdle(now: now, idleAfter: idleAfter) }
        }
    }
}
