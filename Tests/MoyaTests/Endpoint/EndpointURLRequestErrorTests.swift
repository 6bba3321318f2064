import Foundation
import Moya
import Testing

@Suite("Endpoint.urlRequest(): what it refuses, and what it leaves to sending")
struct EndpointURLRequestErrorTests {
    private static let url = "https://api.example.test/people"

    private func endpoint(url: String = url, method: Moya.Method = .post, task: Moya.Task = .requestPlain) -> Endpoint {
        Endpoint(
            url: url,
            sampleResponseClosure: { .networkResponse(200, Data()) },
            method: method,
            task: task
        )
    }

    private func query(_ request: URLRequest) -> String? {
        request.url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false)?.percentEncodedQuery }
    }

    // MARK: URLs

    /// Foundation on Linux (and on macOS 14) percent-encodes these in `URL(string:)`; Moya's
    /// users expect them to be refused, as Foundation used to.
    @Test(arguments: [
        "some invalid URL", "", "http://exa mple.test/a b", "https://[::1/x", "https://api.example.test/a|b",
    ])
    func aStringThatIsNoURLGivesRequestMappingWithThatString(url: String) {
        #expect {
            try endpoint(url: url).urlRequest()
        } throws: { error in
            guard case .requestMapping(let reported)? = error as? MoyaError else { return false }
            return reported == url
        }
    }

    @Test(arguments: [
        "https://api.example.test/people",
        "https://api.example.test/a%20b?q=x%20y#top",
        "http://127.0.0.1:8080/",
        "https://user@api.example.test:8443/v1/items;v=2?a=1&b=2",
    ])
    func aValidURLIsKeptExactlyAsWritten(url: String) throws {
        #expect(try endpoint(url: url).urlRequest().url?.absoluteString == url)
    }

    // MARK: Parameters

    @Test func parametersJSONCannotHoldGiveParameterEncoding() {
        #expect {
            try endpoint(task: .requestParameters(parameters: ["when": Date()], encoding: JSONEncoding.default))
                .urlRequest()
        } throws: { error in
            guard case .parameterEncoding(let inner)? = error as? MoyaError,
                case .invalidJSONObject(let path, _)? = inner as? ParameterEncodingError
            else { return false }
            return path == "$.when"
        }
    }

    @Test func badBodyParametersOfACompositeTaskGiveParameterEncoding() {
        #expect {
            try endpoint(
                task: .requestCompositeParameters(
                    bodyParameters: ["value": Double.infinity],
                    bodyEncoding: JSONEncoding.default,
                    urlParameters: [:]
                )
            ).urlRequest()
        } throws: { error in
            guard case .parameterEncoding? = error as? MoyaError else { return false }
            return true
        }
    }

    // MARK: Multipart: built whatever the method, as in Moya

    @Test(arguments: [Moya.Method.get, .head, .delete, .post])
    func aMultipartTaskBuildsABodylessRequestWhateverTheMethod(method: Moya.Method) throws {
        let part = MultipartFormData(provider: .data(Data("x".utf8)), name: "file")
        let request = try endpoint(method: method, task: .uploadMultipart([part])).urlRequest()
        #expect(request.httpMethod == method.rawValue)
        #expect(request.httpBody == nil)
    }

    @Test func aCompositeMultipartTaskOnAGetStillPutsItsParametersInTheQuery() throws {
        let part = MultipartFormData(provider: .data(Data("x".utf8)), name: "file")
        let request = try endpoint(method: .get, task: .uploadCompositeMultipart([part], urlParameters: ["album": "a"]))
            .urlRequest()
        #expect(request.httpMethod == "GET")
        #expect(query(request) == "album=a")
    }

    @Test func aMultipartTaskWithNoPartsStillBuildsARequest() throws {
        #expect(try endpoint(task: .uploadMultipart([])).urlRequest().httpMethod == "POST")
    }
}
