import Foundation
import Moya

extension DemoSteps {
    /// `RetryPolicy` on an endpoint that fails twice.
    static let retry = DemoStep(
        name: "retry",
        title: "Retry on a flaky endpoint",
        explanation: """
            An interceptor decides after each attempt whether to try again. RetryPolicy \
            retries 503 and other transient failures of idempotent requests, with \
            exponential backoff; plugins still see one request.
            """,
        code: """
            let policy = RetryPolicy(retryLimit: 3,
                                     exponentialBackoffScale: 0.1, jitter: 0)
            let provider = MoyaProvider<GitHub>(interceptor: policy)
            try await provider.request(.flaky(key: key, failures: 2))   // 503, 503, 200
            """,
        needsEmbeddedServer: true
    ) { context in
        let policy = RetryPolicy(retryLimit: 3, exponentialBackoffScale: 0.1, jitter: 0)
        let provider = MoyaProvider<GitHub>(interceptor: ReportingRetryPolicy(policy: policy, context: context))
        // A key of its own, so that concurrent runs do not share the endpoint's failures.
        let report = try await provider.request(.flaky(key: UUID().uuidString, failures: 2), as: FlakyReport.self)
        guard report.attempts == 3 else {
            throw DemoStepError("The server saw \(report.attempts) attempts, not 3.")
        }
        context.say("succeeded on attempt \(report.attempts) of at most \(policy.retryLimit + 1)")
    }
}
