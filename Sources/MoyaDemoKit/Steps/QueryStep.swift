import Foundation
import Moya

extension DemoSteps {
    /// Query parameters from a target's task.
    static let query = DemoStep(
        name: "query",
        title: "Query parameters",
        explanation: """
            A task of .requestParameters with URLEncoding puts the parameters in the URL's \
            query for a GET (and in the body for a POST).
            """,
        code: """
            case .userRepositories:
                return .requestParameters(parameters: ["sort": "pushed"],
                                          encoding: URLEncoding.default)
            """
    ) { context in
        let provider = MoyaProvider<GitHub>()
        let response = try await provider.request(.userRepositories("moya"))
        guard let url = response.request?.url, let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        else {
            throw DemoStepError("The response does not name its request's URL.")
        }
        context.say("sent: GET \(components.path)?\(components.query ?? "")")
        guard components.queryItems?.contains(URLQueryItem(name: "sort", value: "pushed")) == true else {
            throw DemoStepError("The request's query has no sort=pushed.")
        }
        context.say("status: \(response.statusCode)")
    }
}
