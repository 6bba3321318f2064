import Foundation
import Testing

@testable import Moya

/// The breaker's rules alone: when it opens, what it refuses, how trials close or reopen it.
@Suite("Circuit breaker: state machine")
struct CircuitBreakerStateMachineTests {
    private func machine(
        window: Int = 4,
        minimum: Int = 4,
        threshold: Double = 0.5,
        slow: Double? = nil,
        open: Double = 30,
        trials: Int = 2
    ) -> CircuitBreaker.StateMachine {
        CircuitBreaker.StateMachine(
            settings: CircuitBreaker(
                windowSize: window,
                minimumCalls: minimum,
                failureRateThreshold: threshold,
                slowCallDuration: slow,
                slowCallRateThreshold: 0.5,
                openDuration: open,
                halfOpenTrials: trials
            )
        )
    }

    private func call(
        _ breaker: inout CircuitBreaker.StateMachine,
        _ outcome: CircuitBreaker.StateMachine.Outcome,
        at now: Double,
        duration: Double = 0.1
    ) {
        guard case .allow(let trial) = breaker.admit(now: now) else {
            Issue.record("the call should have been admitted at \(now)")
            return
        }
        breaker.record(outcome, duration: duration, trial: trial, now: now)
    }

    @Test func itStaysClosedUntilTheMinimumNumberOfCallsIsCounted() {
        var breaker = machine()
        for second in 0..<3 {
            call(&breaker, .failure, at: Double(second))
        }
        #expect(breaker.admit(now: 3) == .allow(trial: false))
    }

    @Test func itOpensWhenTheFailureRateReachesTheThresholdAndRefusesUntilTheWaitIsOver() {
        var breaker = machine()
        call(&breaker, .success, at: 0)
        call(&breaker, .success, at: 1)
        call(&breaker, .failure, at: 2)
        call(&breaker, .failure, at: 3)
        #expect(breaker.admit(now: 4) == .reject(retryAt: 33))
        #expect(breaker.admit(now: 32.9) == .reject(retryAt: 33))
    }

    @Test func aFailureRateUnderTheThresholdKeepsItClosed() {
        var breaker = machine(threshold: 0.75)
        let outcomes: [CircuitBreaker.StateMachine.Outcome] = [.success, .failure, .success, .failure]
        for (second, outcome) in outcomes.enumerated() {
            call(&breaker, outcome, at: Double(second))
        }
        #expect(breaker.admit(now: 5) == .allow(trial: false))
    }

    @Test func onlyTheLatestCallsOfTheWindowCount() {
        var breaker = machine(threshold: 0.75)
        let outcomes: [CircuitBreaker.StateMachine.Outcome] = [
            .failure, .failure, .success, .success, .success, .success, .failure, .failure,
        ]
        for (second, outcome) in outcomes.enumerated() {
            call(&breaker, outcome, at: Double(second))
        }
        // The window of four holds two failures: under the threshold.
        #expect(breaker.admit(now: 8) == .allow(trial: false))
        call(&breaker, .failure, at: 8)
        // Three of the last four failed, though only five of all nine did.
        #expect(breaker.admit(now: 9) == .reject(retryAt: 38))
    }

    @Test func slowCallsOpenItWhenSpeedIsJudged() {
        var breaker = machine(slow: 2)
        for second in 0..<4 {
            call(&breaker, .success, at: Double(second), duration: 3)
        }
        #expect(breaker.admit(now: 5) == .reject(retryAt: 33))
    }

    @Test func afterTheWaitTrialsGoThroughAndTheirSuccessClosesIt() {
        var breaker = machine(open: 10, trials: 2)
        for second in 0..<4 {
            call(&breaker, .failure, at: Double(second))
        }
        #expect(breaker.admit(now: 13) == .allow(trial: true))
        #expect(breaker.admit(now: 13) == .allow(trial: true))
        // Both trial places are taken until they are answered.
        #expect(breaker.admit(now: 13) == .reject(retryAt: 23))
        breaker.record(.success, duration: 0.1, trial: true, now: 14)
        breaker.record(.success, duration: 0.1, trial: true, now: 14)
        #expect(breaker.admit(now: 14) == .allow(trial: false))
    }

    @Test func aFailedTrialOpensItForAnotherWait() {
        var breaker = machine(open: 10)
        for second in 0..<4 {
            call(&breaker, .failure, at: Double(second))
        }
        #expect(breaker.admit(now: 13) == .allow(trial: true))
        breaker.record(.failure, duration: 0.1, trial: true, now: 14)
        #expect(breaker.admit(now: 15) == .reject(retryAt: 24))
    }

    @Test func anAbandonedTrialGivesItsPlaceBack() {
        var breaker = machine(open: 10, trials: 1)
        for second in 0..<4 {
            call(&breaker, .failure, at: Double(second))
        }
        #expect(breaker.admit(now: 13) == .allow(trial: true))
        breaker.abandonTrial()
        #expect(breaker.admit(now: 13) == .allow(trial: true))
    }

    @Test func aCallAdmittedBeforeItOpenedIsNotCountedAgain() {
        var breaker = machine(open: 10)
        for second in 0..<4 {
            call(&breaker, .failure, at: Double(second))
        }
        breaker.record(.success, duration: 0.1, trial: false, now: 4)
        #expect(breaker.admit(now: 5) == .reject(retryAt: 13))
    }

    @Test func theDefaultClassificationCountsFaultsAnd5xxButNot4xx() {
        let request = URLRequest(url: URL(fileURLWithPath: "/"))
        func response(_ status: Int) -> Response {
            Response(statusCode: status, data: Data(), request: request)
        }
        #expect(CircuitBreaker.isTransportFaultOrServerError(.success(response(503))))
        #expect(!CircuitBreaker.isTransportFaultOrServerError(.success(response(404))))
        #expect(!CircuitBreaker.isTransportFaultOrServerError(.failure(.statusCode(response(429)))))
        #expect(CircuitBreaker.isTransportFaultOrServerError(.failure(.underlying(URLError(.timedOut), nil))))
    }
}
