import Foundation
import Moya

extension DemoSteps {
    /// A circuit breaker opening on a failing upstream, refusing at once, and recovering.
    static let resilience = DemoStep(
        name: "breaker",
        title: "A circuit breaker on a failing upstream",
        explanation: """
            Resilience policies on the session keep a service from hammering an API that \
            is down: once half of the last calls failed, the breaker opens and requests \
            fail at once, unsent; after a wait, a trial request closes it again.
            """,
        code: """
            var configuration = Session.Configuration()
            configuration.resilience.circuitBreaker = CircuitBreaker(
                windowSize: 4, minimumCalls: 4, openDuration: 1, halfOpenTrials: 1)
            let provider = MoyaProvider<GitHub>(
                session: Session(configuration: configuration))
            try await provider.request(.flaky(key: key, failures: 4)) // 503 × 4
            try await provider.request(.flaky(key: key, failures: 4)) // refused
            """,
        needsEmbeddedServer: true
    ) { context in
        var configuration = Session.Configuration(cookieStorage: nil)
        let breaker = CircuitBreaker(windowSize: 4, minimumCalls: 4, openDuration: 1, halfOpenTrials: 1)
        configuration.resilience.circuitBreaker = breaker
        let provider = MoyaProvider<GitHub>(session: Session(configuration: configuration))
        // A key of its own, so that concurrent runs do not share the endpoint's failures.
        let target = GitHub.flaky(key: UUID().uuidString, failures: 4)
        for call in 1...4 {
            do {
                _ = try await provider.request(target)
                throw DemoStepError("Call \(call) succeeded; the upstream should be failing.")
            } catch let error as MoyaError {
                // The target accepts 2xx only: a 503 arrives as its validation error.
                guard let status = error.response?.statusCode else { throw error }
                context.say("call \(call): \(status)")
            }
        }
        do {
            _ = try await provider.request(target)
            throw DemoStepError("The open breaker let a request through.")
        } catch MoyaError.underlying(let error as MoyaClientError, _) where error.code == .circuitOpen {
            context.say("call 5: refused at once, unsent (circuit open)")
        }
        // The breaker's own wait, before it lets a trial through.
        try await _Concurrency.Task.sleep(for: .seconds(breaker.openDuration))
        let report = try await provider.request(target, as: FlakyReport.self)
        guard report.attempts == 5 else {
            throw DemoStepError("The server saw \(report.attempts) attempts, not 5.")
        }
        context.say("after \(Int(breaker.openDuration)) s, a trial: 200; the breaker is closed")
        context.say("the server saw \(report.attempts) requests of 6 calls")
    }
}
