import Foundation
import Moya

/// A small API for stub tests, which never reach a network.
enum Greeting: TargetType {
    case hello
    case wave

    var baseURL: URL { URL(string: "https://greeting.example") ?? URL(fileURLWithPath: "/") }
    var path: String { self == .hello ? "/hello" : "/wave" }
    var method: Moya.Method { .get }
    var task: Moya.Task { .requestPlain }
    var headers: [String: String]? { nil }
    var sampleData: Data { Data("sample".utf8) }
}

extension MoyaProvider where Target == Greeting {
    /// A provider that answers every request with `sample`, after `stub` says when.
    static func stubbed(
        _ sample: @escaping @Sendable () -> EndpointSampleResponse,
        stub: @escaping StubClosure = MoyaProvider.immediatelyStub
    ) -> MoyaProvider<Greeting> {
        MoyaProvider<Greeting>(
            endpointClosure: { target in
                MoyaProvider.defaultEndpointMapping(for: target).replacing(sampleResponseClosure: sample)
            },
            stubClosure: stub
        )
    }
}
