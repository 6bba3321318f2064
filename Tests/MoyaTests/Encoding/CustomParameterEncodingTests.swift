import Foundation
import Moya
import Testing

/// An encoding as a Moya user writes one: `key=value` lines in a text body.
private struct LineEncoding: ParameterEncoding {
    func encode(_ urlRequest: URLRequestConvertible, with parameters: Parameters?) throws -> URLRequest {
        var request = try urlRequest.asURLRequest()
        guard let parameters else { return request }
        let lines = parameters.keys.sorted().map { "\($0)=\(parameters[$0] ?? "")" }
        request.httpBody = Data(lines.joined(separator: "\n").utf8)
        request.setValue("text/plain", forHTTPHeaderField: "Content-Type")
        return request
    }
}

/// An encoding that always refuses, with an error of its own.
private struct RefusingEncoding: ParameterEncoding {
    struct Refused: Error, Equatable {}

    func encode(_ urlRequest: URLRequestConvertible, with parameters: Parameters?) throws -> URLRequest {
        throw Refused()
    }
}

@Suite("User-defined ParameterEncoding")
struct CustomParameterEncodingTests {
    private func endpoint(_ task: Moya.Task, method: Moya.Method = .post) -> Endpoint {
        Endpoint(
            url: "https://api.example.test/notes",
            sampleResponseClosure: { .networkResponse(200, Data()) },
            method: method,
            task: task
        )
    }

    @Test func aCustomEncodingBuildsTheBodyOfRequestParameters() throws {
        let request = try endpoint(.requestParameters(parameters: ["b": 2, "a": "one"], encoding: LineEncoding()))
            .urlRequest()
        #expect(request.httpBody == Data("a=one\nb=2".utf8))
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "text/plain")
        #expect(request.httpMethod == "POST")
    }

    @Test func aCustomEncodingCanBeTheBodyEncodingOfCompositeParameters() throws {
        let request = try endpoint(
            .requestCompositeParameters(
                bodyParameters: ["a": 1],
                bodyEncoding: LineEncoding(),
                urlParameters: ["page": 2]
            )
        ).urlRequest()
        #expect(request.httpBody == Data("a=1".utf8))
        #expect(request.url?.absoluteString == "https://api.example.test/notes?page=2")
    }

    @Test func theErrorOfACustomEncodingIsWrappedAsParameterEncoding() {
        #expect {
            try endpoint(.requestParameters(parameters: ["a": 1], encoding: RefusingEncoding())).urlRequest()
        } throws: { error in
            guard case .parameterEncoding(let inner)? = error as? MoyaError else { return false }
            return inner as? RefusingEncoding.Refused == RefusingEncoding.Refused()
        }
    }

    @Test func aProviderSendsWhatTheCustomEncodingBuilt() async throws {
        let provider = MoyaProvider<DynamicTarget>(stubClosure: MoyaProvider.immediatelyStub)
        let target = DynamicTarget(
            baseURL: URL(string: "https://api.example.test")!,
            path: "/notes",
            method: .put,
            makeTask: { .requestParameters(parameters: ["x": "y"], encoding: LineEncoding()) }
        )
        let response = try await provider.requestAndWait(target, callbackQueue: DispatchQueue(label: "custom-encoding"))
            .get()
        #expect(response.request?.httpBody == Data("x=y".utf8))
        #expect(response.request?.value(forHTTPHeaderField: "Content-Type") == "text/plain")
    }

    @Test func aProviderReportsTheCustomEncodingsFailure() async {
        let provider = MoyaProvider<DynamicTarget>(stubClosure: MoyaProvider.immediatelyStub)
        let target = DynamicTarget(
            baseURL: URL(string: "https://api.example.test")!,
            path: "/notes",
            makeTask: { .requestParameters(parameters: [:], encoding: RefusingEncoding()) }
        )
        let result = await provider.requestAndWait(target, callbackQueue: DispatchQueue(label: "custom-encoding"))
        guard case .failure(.parameterEncoding(let inner)) = result else {
            Issue.record("expected a parameter encoding error, got \(result)")
            return
        }
        #expect(inner is RefusingEncoding.Refused)
    }
}
