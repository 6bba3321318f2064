import Foundation
import Moya

/// An internal target written with the `HTTPTask` name, which never collides with Swift's `Task`.
enum InternalAPI: TargetType {
    case search(query: String)

    var baseURL: URL { URL(string: "https://api.example.test") ?? URL(fileURLWithPath: "/") }
    var path: String { "/search" }
    var method: Moya.Method { .get }
    var task: HTTPTask {
        switch self {
        case .search(let query):
            return .requestParameters(parameters: ["q": query], encoding: URLEncoding.queryString)
        }
    }
    var headers: [String: String]? { nil }
    var sampleData: Data { Data("[]".utf8) }
}
