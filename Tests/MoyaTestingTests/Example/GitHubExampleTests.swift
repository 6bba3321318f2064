// The example of README.md's "Testing with MoyaTesting" section, kept here so that it compiles
// and passes. Its fixture is in Fixtures/GitHub/.
import Foundation
import Moya
import MoyaTesting
import Testing

enum GitHub: TargetType {
    case zen
    case userProfile(String)

    var baseURL: URL { URL(string: "https://api.github.com")! }
    var path: String {
        switch self {
        case .zen: return "/zen"
        case .userProfile(let name): return "/users/\(name)"
        }
    }
    var method: Moya.Method { .get }
    var task: Moya.Task { .requestPlain }
    var headers: [String: String]? {
        ["Authorization": "Bearer \(ProcessInfo.processInfo.environment["GITHUB_TOKEN"] ?? "")"]
    }
}

@Suite struct GitHubExampleTests {
    /// Fixtures live next to this file; run with `RECORD=1` to record the missing ones.
    let recorder = Recorder(
        directory: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures"),
        mode: ProcessInfo.processInfo.environment["RECORD"] == nil ? .replay : .recordMissing,
        redaction: Redaction(jsonFields: ["email"])
    )
    let sent = RequestRecorder()

    @Test func zenIsAnsweredFromItsFixture() async throws {
        let provider = MoyaProvider<GitHub>(recorder: recorder, plugins: [sent])

        let response = try await provider.request(.zen)

        #expect(response.statusCode == 200)
        #expect(try response.mapString() == "Half measures are as bad as nothing at all.")
        #expect(sent.last?.method == .get)
        #expect(sent.last?.path == "/zen")
    }

    @Test func aBusyServerAnswersLater() async throws {
        let answers = StubSequence(
            .response(statusCode: 503, headers: ["Retry-After": "1"]),
            .json(#"{"login":"moya"}"#)
        )
        let provider = MoyaProvider<GitHub>(
            endpointClosure: { target in
                MoyaProvider.defaultEndpointMapping(for: target)
                    .replacing(sampleResponseClosure: answers.sampleResponseClosure)
            },
            stubClosure: MoyaProvider.immediatelyStub,
            plugins: [sent]
        )

        #expect(try await provider.request(.userProfile("moya")).statusCode == 503)
        #expect(try await provider.request(.userProfile("moya")).statusCode == 200)
        #expect(sent.requests.map(\.path) == ["/users/moya", "/users/moya"])
    }

    @Test func aTimeoutIsReportedAsURLSessionReportsIt() async throws {
        let provider = MoyaProvider<GitHub>(
            endpointClosure: { target in
                MoyaProvider.defaultEndpointMapping(for: target).replacing(sampleResponseClosure: {
                    .failure(.timedOut)
                })
            },
            stubClosure: MoyaProvider.delayedStub(in: 0.01...0.05)
        )

        let error = await #expect(throws: MoyaError.self) { try await provider.request(.zen) }
        let cause = try #require(error?.errorUserInfo[NSUnderlyingErrorKey] as? NSError)
        #expect(cause.code == NSURLErrorTimedOut)
    }
}
