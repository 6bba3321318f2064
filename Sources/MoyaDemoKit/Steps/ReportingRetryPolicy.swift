import Foundation
import Moya

/// A `RetryPolicy` that says what it decides after each attempt, so the demo can show it.
struct ReportingRetryPolicy: RequestInterceptor {
    let policy: RetryPolicy
    let context: DemoContext

    func retry(
        _ request: URLRequest,
        for target: TargetType,
        attempt: Int,
        dueTo result: Result<Response, MoyaError>
    ) async -> RetryResult {
        let decision = await policy.retry(request, for: target, attempt: attempt, dueTo: result)
        let outcome: String
        switch result {
        case .success(let response): outcome = "\(response.statusCode)"
        case .failure(let error): outcome = DemoRunner.describe(error)
        }
        switch decision {
        case .retry:
            context.say("attempt \(attempt): \(outcome), retrying now")
        case .retryWithDelay(let delay):
            context.say("attempt \(attempt): \(outcome), retrying in \(String(format: "%.2f", delay)) s")
        case .doNotRetry, .doNotRetryWithError:
            context.say("attempt \(attempt): \(outcome), done")
        }
        return decision
    }
}
