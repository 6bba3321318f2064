// The stubbed-request benchmark's work, alone, for a profiler: valgrind's callgrind counts
// instructions, which a busy machine does not change.
//
//   swift build -c release --product StubProfile
//   valgrind --tool=callgrind .build/release/StubProfile 20000
//
// `StubProfile COUNT bare` sends a target without headers through a provider without plugins:
// the steps of Moya's own that every request takes, whatever carries it.
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

/// Sets a header in `prepare`, as the benchmark's plugin does.
struct HeaderPlugin: PluginType {
    func prepare(_ request: URLRequest, target: TargetType) -> URLRequest {
        var request = request
        request.setValue("Bearer profile", forHTTPHeaderField: "Authorization")
        return request
    }
}

let baseURL = URL(string: "https://api.example.com/v1")!
let arguments = CommandLine.arguments.dropFirst()
let count = arguments.first.flatMap(Int.init) ?? 20000
let bare = arguments.dropFirst().first == "bare"
let provider = MoyaProvider<StubbedAPI>(
    stubClosure: MoyaProvider.immediatelyStub,
    plugins: bare ? [] : [HeaderPlugin(), NetworkActivityPlugin { _, _ in }]
)
// Off the main actor, as the benchmark runs; the globals of this file belong to the main actor,
// so the loop captures them first and never changes executor.
let received = try await _Concurrency.Task.detached { [provider, count, baseURL, bare] in
    var received = 0
    for _ in 0..<count {
        received += try await provider.request(StubbedAPI(baseURL: baseURL, bare: bare)).data.count
    }
    return received
}.value
print("\(count) stubbed requests, \(received) bytes")
