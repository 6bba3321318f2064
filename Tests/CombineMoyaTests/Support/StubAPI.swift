import Foundation
import Moya

/// A stubbed API: each target answers its sample data with its own status code.
enum StubAPI: TargetType {
    case zen
    case user
    case status(Int)
    case empty
    case notJSON
    case snakeCase

    var baseURL: URL { URL(string: "https://api.example.test")! }

    var path: String {
        switch self {
        case .zen: return "/zen"
        case .user: return "/users/octocat"
        case .status(let code): return "/status/\(code)"
        case .empty: return "/empty"
        case .notJSON: return "/html"
        case .snakeCase: return "/account"
        }
    }

    var method: Moya.Method { .get }

    var task: Moya.Task { .requestPlain }

    var headers: [String: String]? { nil }

    var sampleData: Data {
        switch self {
        case .zen, .status: return Data("Half measures are as bad as nothing at all.".utf8)
        case .user: return Data(#"{"data": {"user": {"login": "octocat", "id": 583231}}, "message": "hello"}"#.utf8)
        case .empty: return Data()
        case .notJSON: return Data("<html></html>".utf8)
        case .snakeCase: return Data(#"{"user_name": "octocat"}"#.utf8)
        }
    }

    var sampleStatusCode: Int {
        if case .status(let code) = self { return code }
        return 200
    }
}

/// The decoded user of `StubAPI.user`.
struct User: Decodable, Equatable {
    let login: String
    let id: Int
}

/// The serial queue the tests' callbacks run on.
let callbackQueue = DispatchQueue(label: "combine-moya-tests")

/// A provider answering `StubAPI` with its stubs, each with its own status code.
func stubProvider(
    _ stubClosure: @escaping MoyaProvider<StubAPI>.StubClosure = MoyaProvider.immediatelyStub,
    plugins: [PluginType] = []
) -> MoyaProvider<StubAPI> {
    MoyaProvider<StubAPI>(
        endpointClosure: { target in
            Endpoint(
                url: URL(target: target).absoluteString,
                sampleResponseClosure: { .networkResponse(target.sampleStatusCode, target.sampleData) },
                method: target.method,
                task: target.task,
                httpHeaderFields: target.headers
            )
        },
        stubClosure: stubClosure,
        callbackQueue: callbackQueue,
        plugins: plugins
    )
}

/// A provider whose every stub fails at once with a transport error of `code`.
func failingStubProvider(code: Int) -> MoyaProvider<StubAPI> {
    MoyaProvider<StubAPI>(
        endpointClosure: { target in
            Endpoint(
                url: URL(target: target).absoluteString,
                sampleResponseClosure: { .networkError(NSError(domain: "Test", code: code)) },
                method: target.method,
                task: target.task,
                httpHeaderFields: nil
            )
        },
        stubClosure: MoyaProvider.immediatelyStub,
        callbackQueue: callbackQueue
    )
}

/// Waits until every block already queued on `queue` has run.
func drain(_ queue: DispatchQueue) async {
    await withCheckedContinuation { continuation in queue.async { continuation.resume() } }
}
