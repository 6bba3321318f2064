// The stubbed-request benchmark's work, alone, for a profiler: valgrind's callgrind counts
// instructions, which a busy machine does not change.
//
//   swift build -c release --product StubProfile
//   valgrind --tool=callgrind .build/release/StubProfile 20000
//
// `StubProfile COUNT bare` sends a target without headers through a provider without plugins:
// the steps of Moya's own that every request takes, whatever carries it.
// `StubProfile COUNT users` runs the request as a user's unit test does (two URL-encoded query
// parameters, an `Accept` header, a plugin setting `Authorization` in `prepare`, a plugin
// observing `willSend` and `didReceive`, the callback API), and `StubProfile COUNT floor` builds
// the same `URLRequest` by hand: the two make the ratio the performance issue asks for.
import Foundation
import Moya

struct StubbedAPI: TargetType {
    let baseURL: URL
    var bare = false
    var path: String { "/json" }
    var method: Moya.Method { .get }
    var task: Moya.Task { .requestPlain }
    var headers: [String: String]? { bare ? nil : ["Accept": "application/json"] }
    var sampleData: Data { Data("{}".utf8) }
}

/// The target of a user's test: a search with two query parameters.
struct SearchAPI: TargetType {
    let baseURL: URL
    var path: String { "/search" }
    var method: Moya.Method { .get }
    var task: Moya.Task {
        .requestParameters(parameters: ["page": 2, "q": "swift"], encoding: URLEncoding.queryString)
    }
    var headers: [String: String]? { ["Accept": "application/json"] }
    var sampleData: Data { Data("{}".utf8) }
}

/// Sets a header in `prepare`, as the benchmark's plugin does.
struct HeaderPlugin: PluginType {
    func prepare(_ request: URLRequest, target: TargetType) -> URLRequest {
        var request = request
        request.setValue("Bearer profile", forHTTPHeaderField: "Authorization")
        return request
    }
}

/// Observes a request's start and end, as a logging or analytics plugin does.
final class ObservingPlugin: PluginType, @unchecked Sendable {
    // `@unchecked Sendable`: the counters are touched only by the one thread of this program.
    var sent = 0
    var received = 0

    func willSend(_ request: RequestType, target: TargetType) {
        sent += 1
    }

    func didReceive(_ result: Result<Response, MoyaError>, target: TargetType) {
        received += 1
    }
}

let baseURL = URL(string: "https://api.example.com/v1")!
let arguments = CommandLine.arguments.dropFirst()
let count = arguments.first.flatMap(Int.init) ?? 20000
let mode = arguments.dropFirst().first ?? "plugins"

switch mode {
case "users":
    let observer = ObservingPlugin()
    let provider = MoyaProvider<SearchAPI>(
        stubClosure: MoyaProvider.immediatelyStub,
        plugins: [HeaderPlugin(), observer]
    )
    var received = 0
    for _ in 0..<count {
        // An immediate stub with no queue answers inside `request`, as in Moya 15.
        provider.request(SearchAPI(baseURL: baseURL)) { result in
            received += (try? result.get().data.count) ?? 0
        }
    }
    print("\(count) stubbed requests as a user's test makes them, \(received) bytes, \(observer.received) observed")
case "floor":
    var built = 0
    for _ in 0..<count {
        var components = URLComponents(url: baseURL.appendingPathComponent("search"), resolvingAgainstBaseURL: false)!
        components.queryItems = [URLQueryItem(name: "page", value: "2"), URLQueryItem(name: "q", value: "swift")]
        var request = URLRequest(url: components.url!)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        request.setValue("Bearer profile", forHTTPHeaderField: "Authorization")
        built += request.allHTTPHeaderFields?.count ?? 0
    }
    print("\(count) requests built by hand, \(built) headers")
default:
    let bare = mode == "bare"
    let provider = MoyaProvider<StubbedAPI>(
        stubClosure: MoyaProvider.immediatelyStub,
        plugins: bare ? [] : [HeaderPlugin(), NetworkActivityPlugin { _, _ in }]
    )
    // Off the main actor, as the benchmark runs; the globals of this file belong to the main
    // actor, so the loop captures them first and never changes executor. The main thread waits
    // on a semaphore, not in an async `main`: valgrind 3.19 crashes when an async `main` returns.
    let outcome = Outcome()
    _Concurrency.Task.detached { [provider, count, baseURL, bare, outcome] in
        var received = 0
        for _ in 0..<count {
            received += (try? await provider.request(StubbedAPI(baseURL: baseURL, bare: bare)).data.count) ?? 0
        }
        outcome.received = received
        outcome.done.signal()
    }
    outcome.done.wait()
    print("\(count) stubbed requests, \(outcome.received) bytes")
}

/// What the loop received, handed from its task to the main thread.
final class Outcome: @unchecked Sendable {
    // `@unchecked Sendable`: written once by the task before it signals `done`, read by the main
    // thread only after `done` was signalled; the semaphore orders the two.
    var received = 0
    let done = DispatchSemaphore(value: 0)
}
