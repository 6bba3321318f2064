import Foundation
import Moya

/// A stubbed API: each target answers its sample data with its own status code.
public enum StubAPI: TargetType {
    /// Text, status 200.
    case zen
    /// A user's JSON nested under `data.user`, and a `message`.
    case user
    /// Text, with the given status code.
    case status(Int)
    /// No body.
    case empty
    /// JSON with a snake-case key.
    case snakeCase

    /// A host that is never reached: every request is stubbed.
    public var baseURL: URL { URL(string: "https://api.example.test") ?? URL(fileURLWithPath: "/") }

    /// One path per case.
    public var path: String {
        switch self {
        case .zen: return "/zen"
        case .user: return "/users/octocat"
        case .status(let code): return "/status/\(code)"
        case .empty: return "/empty"
        case .snakeCase: return "/account"
        }
    }

    /// Every case is a `GET`.
    public var method: Moya.Method { .get }

    /// No body, no parameters.
    public var task: Moya.Task { .requestPlain }

    /// No headers of its own.
    public var headers: [String: String]? { nil }

    /// The body its stub answers with.
    public var sampleData: Data {
        switch self {
        case .zen, .status: return Data("Half measures are as bad as nothing at all.".utf8)
        case .user: return Data(#"{"data": {"user": {"login": "octocat", "id": 583231}}, "message": "hello"}"#.utf8)
        case .empty: return Data()
        case .snakeCase: return Data(#"{"user_name": "octocat"}"#.utf8)
        }
    }

    /// The status code its stub answers with.
    public var sampleStatusCode: Int {
        if case .status(let code) = self { return code }
        return 200
    }
}

/// The decoded user of `StubAPI.user` and of the loopback server's `/users/:name`.
public struct User: Decodable, Equatable, Sendable {
    /// The user's name.
    public let login: String
    /// The user's number.
    public let id: Int

    /// A user, to compare with a decoded one.
    public init(login: String, id: Int) {
        self.login = login
        self.id = id
    }
}

/// A provider answering `StubAPI` with its stubs, each with its own status code, on `queue`
/// (none: Moya's default, where an immediate stub answers inside `request`).
public func stubProvider(
    _ stubClosure: @escaping MoyaProvider<StubAPI>.StubClosure = MoyaProvider.immediatelyStub,
    queue: DispatchQueue? = callbackQueue,
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
        callbackQueue: queue,
        plugins: plugins
    )
}

/// A provider whose every stub fails at once with a transport error of `code`.
public func failingStubProvider(code: Int) -> MoyaProvider<StubAPI> {
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
