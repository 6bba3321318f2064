import Foundation
import Moya
import MoyaTesting
import Testing

@Suite("Failure stubs fail as the network path does")
struct NetworkFailureStubTests {
    @Test(arguments: [
        (NetworkFailure.timedOut, NSURLErrorTimedOut),
        (.connectionLost, NSURLErrorNetworkConnectionLost),
        (.cannotConnectToHost, NSURLErrorCannotConnectToHost),
        (.cannotFindHost, NSURLErrorCannotFindHost),
        (.badServerResponse, NSURLErrorBadServerResponse),
    ])
    func aFailureStubIsAnUnderlyingURLError(failure: NetworkFailure, code: Int) async throws {
        let url = URL(string: "https://greeting.example/hello")
        let provider = MoyaProvider<Greeting>.stubbed { .failure(failure, url: url) }

        let error = await #expect(throws: MoyaError.self) { try await provider.request(.hello) }
        guard case .underlying(let inner, nil)? = error else {
            Issue.record("expected .underlying(_, nil), got \(String(describing: error))")
            return
        }
        let nsError = inner as NSError
        #expect(nsError.domain == NSURLErrorDomain)
        #expect(nsError.code == code)
        #expect(nsError.userInfo[NSURLErrorFailingURLErrorKey] as? URL == url)
        #expect(!nsError.localizedDescription.isEmpty)
    }

    @Test func theCannotConnectStubMatchesWhatARealRefusedConnectionReports() async throws {
        struct Refused: TargetType {
            var baseURL: URL { Catalog.unreachable }
            var path: String { "/" }
            var method: Moya.Method { .get }
            var task: Moya.Task { .requestPlain }
            var headers: [String: String]? { nil }
        }
        let real = await #expect(throws: MoyaError.self) { try await MoyaProvider<Refused>().request(Refused()) }
        let stubbed = await #expect(throws: MoyaError.self) {
            try await MoyaProvider<Greeting>.stubbed { .failure(.cannotConnectToHost) }.request(.hello)
        }
        guard case .underlying(let realError, nil)? = real, case .underlying(let stubError, nil)? = stubbed else {
            Issue.record(
                "expected two .underlying errors without a response: \(String(describing: real)), \(String(describing: stubbed))"
            )
            return
        }
        #expect((realError as NSError).domain == (stubError as NSError).domain)
        #expect((realError as NSError).code == (stubError as NSError).code)
    }
}
