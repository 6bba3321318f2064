import Foundation
import Moya
import Testing

private struct Person: Codable, Equatable {
    var firstName: String
    var lastName: String
    var born: Date
}

/// An `Encodable` whose encoding always fails.
private struct Unencodable: Encodable {
    struct Failure: Error {}

    func encode(to encoder: Encoder) throws {
        throw Failure()
    }
}

@Suite("Endpoint")
struct EndpointTests {
    private static let url = "https://api.example.test/people"

    private func endpoint(
        url: String = url,
        method: Moya.Method = .post,
        task: Moya.Task = .requestPlain,
        headers: [String: String]? = nil,
        sample: Data = Data("sample".utf8)
    ) -> Endpoint {
        Endpoint(
            url: url,
            sampleResponseClosure: { .networkResponse(201, sample) },
            method: method,
            task: task,
            httpHeaderFields: headers
        )
    }

    /// A composite task with `name=Ada` in the body, encoded by `bodyEncoding`, and `page=2` in the query.
    private func adaOnPage2(bodyEncoding: ParameterEncoding) -> Moya.Task {
        .requestCompositeParameters(
            bodyParameters: ["name": "Ada"],
            bodyEncoding: bodyEncoding,
            urlParameters: ["page": 2]
        )
    }

    private func query(_ request: URLRequest) -> String? {
        request.url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false)?.percentEncodedQuery }
    }

    private func jsonBody(_ request: URLRequest) throws -> NSDictionary? {
        guard let body = request.httpBody else { return nil }
        return try JSONSerialization.jsonObject(with: body) as? NSDictionary
    }

    private func sampleData(_ endpoint: Endpoint) -> Data? {
        guard case .networkResponse(_, let data) = endpoint.sampleResponseClosure() else { return nil }
        return data
    }

    // MARK: adding and replacing

    @Test func addingHeadersMergesThemAndOverridesOnesOfTheSameName() {
        let base = endpoint(headers: ["Accept": "text/plain", "X-Keep": "1"])
        let added = base.adding(newHTTPHeaderFields: ["Accept": "application/json", "X-New": "2"])
        #expect(added.httpHeaderFields == ["Accept": "application/json", "X-Keep": "1", "X-New": "2"])
    }

    @Test func addingHeadersLeavesTheOriginalEndpointUnchanged() {
        let base = endpoint(headers: ["Accept": "text/plain"])
        _ = base.adding(newHTTPHeaderFields: ["Accept": "application/json"])
        #expect(base.httpHeaderFields == ["Accept": "text/plain"])
    }

    @Test func addingHeadersToAnEndpointWithoutHeadersGivesJustThoseHeaders() {
        #expect(endpoint().adding(newHTTPHeaderFields: ["X-New": "2"]).httpHeaderFields == ["X-New": "2"])
    }

    @Test func addingNoHeadersKeepsTheExistingOnes() {
        #expect(endpoint(headers: ["X-Keep": "1"]).adding(newHTTPHeaderFields: [:]).httpHeaderFields == ["X-Keep": "1"])
        #expect(endpoint().adding(newHTTPHeaderFields: [:]).httpHeaderFields == nil)
    }

    @Test func addingHeadersKeepsEverythingElse() throws {
        let base = endpoint(method: .patch, task: .requestData(Data("body".utf8)), sample: Data("s".utf8))
        let added = base.adding(newHTTPHeaderFields: ["X-New": "2"])
        #expect(added.url == base.url)
        #expect(added.method == .patch)
        #expect(sampleData(added) == Data("s".utf8))
        #expect(try added.urlRequest().httpBody == Data("body".utf8))
    }

    @Test func addedHeadersReachTheRequest() throws {
        let request = try endpoint(headers: ["Accept": "text/plain"])
            .adding(newHTTPHeaderFields: ["Accept": "application/json", "X-New": "2"])
            .urlRequest()
        #expect(request.value(forHTTPHeaderField: "Accept") == "application/json")
        #expect(request.value(forHTTPHeaderField: "X-New") == "2")
    }

    @Test func replacingTheTaskKeepsEverythingElse() throws {
        let base = endpoint(
            method: .put,
            task: .requestData(Data("old".utf8)),
            headers: ["X-Keep": "1"],
            sample: Data("s".utf8)
        )
        let replaced = base.replacing(task: .requestData(Data("new".utf8)))
        #expect(replaced.url == base.url)
        #expect(replaced.method == .put)
        #expect(replaced.httpHeaderFields == ["X-Keep": "1"])
        #expect(sampleData(replaced) == Data("s".utf8))
        #expect(try replaced.urlRequest().httpBody == Data("new".utf8))
        #expect(try base.urlRequest().httpBody == Data("old".utf8))
    }

    // MARK: urlRequest()

    @Test func theRequestCarriesTheURLMethodAndHeaders() throws {
        let request = try endpoint(method: .delete, headers: ["X-A": "1", "Accept": "application/json"]).urlRequest()
        #expect(request.url?.absoluteString == Self.url)
        #expect(request.httpMethod == "DELETE")
        #expect(request.allHTTPHeaderFields == ["X-A": "1", "Accept": "application/json"])
    }

    @Test func aPlainRequestHasNoBody() throws {
        let request = try endpoint(task: .requestPlain).urlRequest()
        #expect(request.httpBody == nil)
        #expect(request.value(forHTTPHeaderField: "Content-Type") == nil)
    }

    @Test func requestDataSendsTheBytesAsTheyAre() throws {
        let bytes = Data([0xFF, 0x00, 0x7B])
        let request = try endpoint(task: .requestData(bytes)).urlRequest()
        #expect(request.httpBody == bytes)
        #expect(request.value(forHTTPHeaderField: "Content-Type") == nil)
    }

    @Test func requestJSONEncodableSendsJSONWithTheDefaultEncoder() throws {
        let person = Person(firstName: "Ada", lastName: "Lovelace", born: Date(timeIntervalSinceReferenceDate: 0))
        let request = try endpoint(task: .requestJSONEncodable(person)).urlRequest()
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(try JSONDecoder().decode(Person.self, from: request.httpBody ?? Data()) == person)
        #expect(try jsonBody(request)?["firstName"] as? String == "Ada")
    }

    @Test func requestJSONEncodableKeepsAContentTypeSetInTheHeaders() throws {
        let request = try endpoint(
            task: .requestJSONEncodable(["a": 1]),
            headers: ["Content-Type": "application/vnd.api+json"]
        ).urlRequest()
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/vnd.api+json")
        #expect(request.httpBody == Data(#"{"a":1}"#.utf8))
    }

    @Test func requestCustomJSONEncodableUsesTheGivenEncoder() throws {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = .sortedKeys
        let person = Person(firstName: "Ada", lastName: "Lovelace", born: Date(timeIntervalSince1970: 42))
        let request = try endpoint(task: .requestCustomJSONEncodable(person, encoder: encoder)).urlRequest()
        #expect(request.httpBody == Data(#"{"born":42,"first_name":"Ada","last_name":"Lovelace"}"#.utf8))
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/json")
    }

    @Test func anEncodableThatFailsGivesEncodableMapping() {
        #expect {
            try endpoint(task: .requestJSONEncodable(Unencodable())).urlRequest()
        } throws: { error in
            guard case .encodableMapping(let inner)? = error as? MoyaError else { return false }
            return inner is Unencodable.Failure
        }
    }

    @Test func aNonFiniteNumberInAnEncodableGivesEncodableMappingNotACrash() {
        #expect {
            try endpoint(task: .requestJSONEncodable(["value": Double.nan])).urlRequest()
        } throws: { error in
            guard case .encodableMapping? = error as? MoyaError else { return false }
            return true
        }
    }

    @Test func requestParametersWithURLEncodingGoInTheQueryOfAGet() throws {
        let request = try endpoint(
            url: Self.url + "?page=1",
            method: .get,
            task: .requestParameters(parameters: ["q": "a b"], encoding: URLEncoding.default)
        ).urlRequest()
        #expect(query(request) == "page=1&q=a%20b")
        #expect(request.httpBody == nil)
    }

    @Test func requestParametersWithURLEncodingGoInTheBodyOfAPost() throws {
        let request = try endpoint(task: .requestParameters(parameters: ["q": "a b"], encoding: URLEncoding.default))
            .urlRequest()
        #expect(request.httpBody == Data("q=a%20b".utf8))
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/x-www-form-urlencoded; charset=utf-8")
        #expect(query(request) == nil)
    }

    @Test func requestParametersWithJSONEncodingGoInTheBody() throws {
        let request = try endpoint(
            task: .requestParameters(parameters: ["name": "Ada"], encoding: JSONEncoding.default)
        ).urlRequest()
        #expect(try jsonBody(request) == ["name": "Ada"] as NSDictionary)
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/json")
    }

    @Test func requestCompositeDataSendsTheDataAndPutsParametersInTheQuery() throws {
        let request = try endpoint(
            task: .requestCompositeData(bodyData: Data("raw".utf8), urlParameters: ["page": 2, "q": "x"])
        ).urlRequest()
        #expect(request.httpBody == Data("raw".utf8))
        #expect(query(request) == "page=2&q=x")
        #expect(request.httpMethod == "POST")
    }

    @Test func requestCompositeParametersEncodesTheBodyAndTheQuerySeparately() throws {
        let request = try endpoint(task: adaOnPage2(bodyEncoding: JSONEncoding.default)).urlRequest()
        #expect(try jsonBody(request) == ["name": "Ada"] as NSDictionary)
        #expect(query(request) == "page=2")
    }

    @Test func requestCompositeParametersAcceptsAFormBody() throws {
        let request = try endpoint(task: adaOnPage2(bodyEncoding: URLEncoding.httpBody)).urlRequest()
        #expect(request.httpBody == Data("name=Ada".utf8))
        #expect(query(request) == "page=2")
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/x-www-form-urlencoded; charset=utf-8")
    }

    @Test func requestCompositeParametersWithAFormBodyWorksForGetToo() throws {
        let request = try endpoint(method: .get, task: adaOnPage2(bodyEncoding: URLEncoding.httpBody)).urlRequest()
        #expect(request.httpBody == Data("name=Ada".utf8))
        #expect(query(request) == "page=2")
    }

    @Test(arguments: [URLEncoding.Destination.methodDependent, .queryString])
    func requestCompositeParametersRefusesABodyEncodingThatWritesTheQuery(destination: URLEncoding.Destination) {
        #expect {
            try endpoint(task: adaOnPage2(bodyEncoding: URLEncoding(destination: destination))).urlRequest()
        } throws: { error in
            guard case .parameterEncoding(let inner)? = error as? MoyaError,
                case .bodyEncodingMustTargetHTTPBody? = inner as? ParameterEncodingError
            else { return false }
            return true
        }
    }

    @Test func downloadParametersAreEncodedLikeRequestParameters() throws {
        let request = try endpoint(
            method: .get,
            task: .downloadParameters(
                parameters: ["v": 2],
                encoding: URLEncoding.default,
                destination: { temporaryURL, _ in (temporaryURL, []) }
            )
        ).urlRequest()
        #expect(query(request) == "v=2")
    }

    @Test func uploadCompositeMultipartPutsItsParametersInTheQuery() throws {
        let part = MultipartFormData(
            provider: .data(Data("x".utf8)),
            name: "file",
            fileName: "x.txt",
            mimeType: "text/plain"
        )
        let request = try endpoint(task: .uploadCompositeMultipart([part], urlParameters: ["album": "a b"]))
            .urlRequest()
        #expect(query(request) == "album=a%20b")
        #expect(request.httpMethod == "POST")
    }

    @Test func anUploadFileRequestCarriesNoBodyOfItsOwn() throws {
        let request = try endpoint(task: .uploadFile(URL(fileURLWithPath: "/tmp/upload.bin"))).urlRequest()
        #expect(request.httpBody == nil)
        #expect(request.url?.absoluteString == Self.url)
    }
}
