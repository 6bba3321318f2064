import Foundation

extension CircuitBreaker {
    /// One host's breaker, apart from any clock or lock so that every change can be tested
    /// alone: times are seconds on a monotonic clock the caller reads.
    struct StateMachine {
        /// What one finished call was.
        enum Outcome: Equatable {
            case success
            case failure
        }

        private enum State {
            /// Calls go through; the latest outcomes are counted.
            case closed
            /// Calls fail until `until`.
            case open(until: Double)
            /// `admitted` trial calls went through, `succeeded` of them succeeded.
            case halfOpen(admitted: Int, succeeded: Int)
        }

        /// Whether a call may go.
        enum Admission: Equatable {
            /// It goes; `trial` when it is one of the half-open state's trials.
            case allow(trial: Bool)
            /// It fails at once; the next trial is allowed at `retryAt`.
            case reject(retryAt: Double)
        }

        let settings: CircuitBreaker
        private var state = State.closed
        /// The latest outcomes, oldest first, at most `windowSize`: (failed, slow).
        private var window: [(failed: Bool, slow: Bool)] = []
        private var windowStart = 0

        init(settings: CircuitBreaker) {
            self.settings = settings
        }

        /// Whether it holds nothing worth keeping: closed and nothing counted, or closed with
        /// outcomes only (the host's state can be dropped when the host goes idle).
        var isClosed: Bool {
            if case .closed = state { return true }
            return false
        }

        /// Where the breaker stands.
        var phase: CircuitBreaker.State {
            switch state {
            case .closed: return .closed
            case .open: return .open
            case .halfOpen: return .halfOpen
            }
        }

        /// Whether a call may go now.
        mutating func admit(now: Double) -> Admission {
            switch state {
            case .closed:
                return .allow(trial: false)
            case .open(let until):
                guard now >= until else { return .reject(retryAt: until) }
                state = .halfOpen(admitted: 1, succeeded: 0)
                return .allow(trial: true)
            case .halfOpen(let admitted, let succeeded):
                guard admitted < settings.halfOpenTrials else {
                    // The trials are out; the next are allowed once they are answered, which
                    // cannot be told: try again after another open period at the latest.
                    return .reject(retryAt: now + settings.openDuration)
                }
                state = .halfOpen(admitted: admitted + 1, succeeded: succeeded)
                return .allow(trial: true)
            }
        }

        /// A call admitted as `trial` ended with `outcome`, taking `duration` seconds.
        mutating func record(_ outcome: Outcome, duration: Double, trial: Bool, now: Double) {
            let slow = settings.slowCallDuration.map { duration >= $0 } ?? false
            switch state {
            case .closed:
                guard !trial else { return }
                count(failed: outcome == .failure, slow: slow)
                if shouldOpen {
                    open(now: now)
                }
            case .open:
                // A call admitted before the breaker opened: already judged.
                break
            case .halfOpen(let admitted, let succeeded):
                guard trial else { return }
                if outcome == .failure || slow {
                    open(now: now)
                } else if succeeded + 1 >= settings.halfOpenTrials {
                    state = .closed
                    window.removeAll()
                    windowStart = 0
                } else {
                    state = .halfOpen(admitted: admitted, succeeded: succeeded + 1)
                }
            }
        }

        /// A trial call ended without an outcome (it was cancelled): its place is given back.
        mutating func abandonTrial() {
            if case .halfOpen(let admitted, let succeeded) = state, admitted > 0 {
                state = .halfOpen(admitted: admitted - 1, succeeded: succeeded)
            }
        }

        private mutating func count(failed: Bool, slow: Bool) {
            if window.count < settings.windowSize {
                window.append((failed, slow))
            } else {
                window[windowStart] = (failed, slow)
                windowStart = (windowStart + 1) % settings.windowSize
            }
        }

        private var shouldOpen: Bool {
            guard window.count >= settings.minimumCalls else { return false }
            let total = Double(window.count)
            let failed = Double(window.count { $0.failed })
            if failed / total >= settings.failureRateThreshold, failed > 0 {
                return true
            }
            guard settings.slowCallDuration != nil else { return false }
            let slow = Double(window.count { $0.slow })
            return slow > 0 && slow / total >= settings.slowCallRateThreshold
        }

        private mutating func open(now: Double) {
            state = .open(until: now + settings.openDuration)
            window.removeAll()
            windowStart = 0
        }
    }
}
