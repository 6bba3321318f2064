import Foundation
import LoopbackServer
import Moya

/// The API the tests record and replay: an enum target, as Moya users write them.
enum Catalog: TargetType {
    case items(page: Int)
    case create(name: String, password: String, apiKey: String, authorization: String)
    case signIn(user: String, apiKey: String)
    case binary
    case missing
    case download(to: URL)

    /// Never contacted: tests point endpoints at a local server with `endpoints(at:)`.
    var baseURL: URL { URL(fileURLWithPath: "/catalog") }

    var path: String {
        switch self {
        case .items, .create, .signIn: return "/items"
        case .binary: return "/binary"
        case .missing: return "/missing"
        case .download: return "/files/report"
        }
    }

    var method: Moya.Method {
        switch self {
        case .create, .signIn: return .post
        default: return .get
        }
    }

    var task: Moya.Task {
        switch self {
        case .items(let page):
            return .requestParameters(parameters: ["page": page], encoding: URLEncoding.queryString)
        case let .create(name, password, apiKey, _):
            return .requestCompositeParameters(
                bodyParameters: ["name": name, "password": password],
                bodyEncoding: JSONEncoding.default,
                urlParameters: ["api_key": apiKey]
            )
        case let .signIn(user, apiKey):
            return .requestParameters(parameters: ["user": user, "api_key": apiKey], encoding: URLEncoding.httpBody)
        case .binary, .missing:
            return .requestPlain
        case .download(let destination):
            return .downloadDestination { _, _ in (destination, [.createIntermediateDirectories, .removePreviousFile]) }
        }
    }

    var headers: [String: String]? {
        switch self {
        case let .create(_, _, _, authorization):
            return ["Authorization": authorization, "X-Api-Secret": "custom-secret-222"]
        default:
            return nil
        }
    }

    /// The default endpoints, with URLs on `base` instead of `baseURL`.
    static func endpoints(at base: URL) -> MoyaProvider<Catalog>.EndpointClosure {
        { target in
            Endpoint(
                url: base.appendingPathComponent(target.path).absoluteString,
                sampleResponseClosure: { .networkResponse(200, target.sampleData) },
                method: target.method,
                task: target.task,
                httpHeaderFields: target.headers
            )
        }
    }

    /// A URL where nothing listens: a request that reaches the network fails at once.
    static let unreachable = TestServer.unreachableBaseURL
}
