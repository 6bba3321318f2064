import Foundation
import Moya

extension DemoSteps {
    /// A target enum, a provider, and Moya's callback API.
    static let target = DemoStep(
        name: "target",
        title: "A target, a provider, a request",
        explanation: """
            A Moya target is an enum: one case per endpoint, with its path, method and task. \
            A MoyaProvider turns a case into a request and calls back with a Result.
            """,
        code: """
            enum GitHub: TargetType { case zen, userProfile(String), ... }
            let provider = MoyaProvider<GitHub>(callbackQueue: queue)
            provider.request(.zen) { result in ... }
            """
    ) { context in
        // A command-line program passes its own queue: the main queue may not be serviced.
        let provider = MoyaProvider<GitHub>(callbackQueue: context.callbackQueue)
        let result: Result<Response, MoyaError> = await withCheckedContinuation { continuation in
            provider.request(.zen) { result in
                continuation.resume(returning: result)
            }
        }
        let response = try result.get()
        context.say("\(response.statusCode) \(response.request?.url?.path ?? ""): \"\(try response.mapString())\"")
    }
}
