import Foundation

extension ResilienceGate {
    /// Every key's policies and the session's budget, apart from any lock, clock or
    /// continuation, so that the gate's bookkeeping can be tested alone. Times are seconds on a
    /// monotonic clock.
    struct State {
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

        /// Admits an attempt to `key` at `now`; `waiter` is the id it waits under if it must.
        mutating func admit(key: String, waiter: Int, now: Double) -> Admission {
            sweepIfDue(now: now)
            let policies = self.policies
            // Changed in place in the dictionary (see `Host.admit`), found with one lookup.
            let (admission, changed) = hosts[key, default: Self.makeHost(policies, now: now)]
                .admit(waiter: waiter, now: now)
            if let changed {
                breakerChanges.append((key, changed))
            }
            return admission
        }

        /// Waiter `id` of `key` leaves the line; `false` when it holds a place already.
        mutating func leaveLine(key: String, waiter id: Int) -> Bool {
            hosts[key]?.limit?.leave(id) ?? false
        }

        /// How an admitted attempt ended, as its key's policies count it.
        struct Ended {
            let heldPlace: Bool
            let trial: Bool
            /// `nil` when it was never answered (cancelled, or refused after admission).
            let outcome: CircuitBreaker.StateMachine.Outcome?
            let duration: Double
            let hints: RateLimitHints.Hints?
        }

        /// An attempt admitted to `key` ended so. Returns the waiter given its place, if any.
        mutating func release(key: String, _ ended: Ended, now: Double) -> Int? {
            let released = hosts[key]?.release(ended, now: now)
            if let changed = released?.changed {
                breakerChanges.append((key, changed))
            }
            return released?.next
        }

        private static func makeHost(_ policies: ResiliencePolicies, now: Double) -> Host {
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
