import Foundation
import Moya

extension DemoSteps {
    /// Stubbed responses from sample data and endpoint closures.
    static let stubbing = DemoStep(
        name: "stubbing",
        title: "Stubbing: responses without a network",
        explanation: """
            A stub closure answers requests from the target's sampleData, at once or after a \
            delay; an endpoint closure can stub any status code, so tests reach error paths.
            """,
        code: """
            MoyaProvider<GitHub>(stubClosure: MoyaProvider.immediatelyStub)
            MoyaProvider<GitHub>(endpointClosure: { target in
                Endpoint(url: url(target),
                         sampleResponseClosure: { .networkResponse(503, Data()) },
                         method: target.method, task: target.task)
            }, stubClosure: MoyaProvider.delayedStub(0.2))
            """
    ) { context in
        let stubbed = MoyaProvider<GitHub>(stubClosure: MoyaProvider.immediatelyStub)
        let user = try await stubbed.request(.userProfile("stub"), as: User.self)
        context.say("sample data: User(login: \"\(user.login)\", id: \(user.id))")

        let failing = MoyaProvider<GitHub>(
            endpointClosure: { target in
                Endpoint(
                    url: target.baseURL.appendingPathComponent(target.path).absoluteString,
                    sampleResponseClosure: { .networkResponse(503, Data()) },
                    method: target.method,
                    task: target.task,
                    httpHeaderFields: target.headers
                )
            },
            stubClosure: MoyaProvider.delayedStub(0.2)
        )
        do {
            _ = try await failing.request(.zen)
            throw DemoStepError("A stubbed 503 passed the target's validation.")
        } catch let error as MoyaError {
            context.say("stubbed \(error.response?.statusCode ?? 0) after 0.2 s: \(DemoRunner.describe(error))")
        }
    }
}
