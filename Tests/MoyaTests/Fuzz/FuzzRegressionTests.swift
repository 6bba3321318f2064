import AsyncHTTPClient
import Foundation
import Testing

@testable import Moya

/// Inputs the fuzz targets in `Fuzz/` found, replayed in their structured form.
@Suite("Fuzz regressions")
struct FuzzRegressionTests {
    private let queue = DispatchQueue(label: "FuzzRegressionTests")

    /// A GET of an ordinary https URL, for the conversion regressions to add headers to.
    private func itemsRequest() -> URLRequest {
        URLRequest(url: URL(string: "https://api.example.test/items")!)
    }

    // MARK: Methods (FuzzRequestConversion)

    private struct MethodTarget: TargetType {
        let method: Moya.Method
        var baseURL: URL { URL(string: "https://api.example.test")! }
        var path: String { "/items" }
        var sampleData: Data { Data() }
        var task: Moya.Task { .requestPlain }
        var headers: [String: String]? { nil }
    }

    @Test(arguments: ["PR\u{FFFD}OPFIND", "GET /admin HTTP/1.1\r\nHost: evil.test\r\n\r\nGET", "GET ", ""])
    func methodThatIsNotATokenIsRefusedBeforeAnythingIsSent(method: String) async throws {
        var request = itemsRequest()
        request.httpMethod = method
        #expect(HeaderValidation.problem(in: request)?.code == .invalidMethod)
        let thrown = #expect(throws: MoyaClientError.self) {
            try HTTPRequestConversion.makeRequest(request, sessionHeaders: SessionHeaders([:]), body: nil)
        }
        #expect(thrown?.code == .invalidMethod)

        let log = EventLog()
        let provider = MoyaProvider<MethodTarget>(
            stubClosure: MoyaProvider.immediatelyStub,
            plugins: [RecordingPlugin(name: "plugin", log: log)]
        )
        let result = await provider.requestAndWait(
            MethodTarget(method: Moya.Method(rawValue: method)),
            callbackQueue: queue
        )
        guard case .failure(.underlying(let error, nil)) = result else {
            Issue.record("expected an underlying error, got \(result)")
            return
        }
        #expect((error as? MoyaClientError)?.code == .invalidMethod)
        #expect(!log.all.contains("plugin.willSend"))
    }

    @Test(arguments: ["GET", "PROPFIND", "M-SEARCH"])
    func tokenMethodsStillConvert(method: String) throws {
        var request = itemsRequest()
        request.httpMethod = method
        #expect(HeaderValidation.problem(in: request) == nil)
        let converted = try HTTPRequestConversion.makeRequest(request, sessionHeaders: SessionHeaders([:]), body: nil)
        #expect(converted.method.rawValue == method)
    }

    // MARK: Session headers (FuzzRequestConversion)

    @Test(arguments: [
        ["Ue\u{01}r-Agent": "moya"],
        ["User-Agent": "moya\r\nInjected: yes"],
        ["X-Trace": "a\u{00}b"],
    ])
    func sessionHeaderWithIllegalBytesIsRefused(sessionHeaders: [String: String]) throws {
        let request = itemsRequest()
        let thrown = #expect(throws: MoyaClientError.self) {
            try HTTPRequestConversion.makeRequest(request, sessionHeaders: SessionHeaders(sessionHeaders), body: nil)
        }
        #expect(thrown?.code == .invalidHeader)
    }

    /// `HTTPHeaders.add` traps on a name that is not ASCII: the conversion must throw first.
    @Test func sessionHeaderWithNonASCIINameThrowsInsteadOfTrapping() throws {
        var request = itemsRequest()
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let thrown = #expect(throws: MoyaClientError.self) {
            try HTTPRequestConversion.makeRequest(
                request,
                sessionHeaders: SessionHeaders(["\u{FFFD}\u{FFFD}er-moya": "x"]),
                body: nil
            )
        }
        #expect(thrown?.code == .invalidHeader)
    }

    @Test func legalSessionHeadersAreAddedUnlessTheRequestSetsThem() throws {
        var request = itemsRequest()
        request.setValue("mine", forHTTPHeaderField: "user-agent")
        let converted = try HTTPRequestConversion.makeRequest(
            request,
            sessionHeaders: SessionHeaders(["User-Agent": "session", "Accept-Language": "en;q=1.0, fr\t;q=0.5"]),
            body: nil
        )
        #expect(converted.headers["User-Agent"] == ["mine"])
        #expect(converted.headers["Accept-Language"] == ["en;q=1.0, fr\t;q=0.5"])
    }

    /// Found by fuzzing: NIO's case-insensitive match took the request's "!" for a session
    /// header named "\u{01}", which was then skipped without being checked.
    @Test func anIllegalSessionHeaderIsRefusedEvenWhenTheRequestSeemsToSetIt() throws {
        var request = itemsRequest()
        request.setValue("x", forHTTPHeaderField: "!")
        let thrown = #expect(throws: MoyaClientError.self) {
            try HTTPRequestConversion.makeRequest(request, sessionHeaders: SessionHeaders(["\u{01}": ""]), body: nil)
        }
        #expect(thrown?.code == .invalidHeader)
    }

    @Test func sessionHeaderNamesDifferingOnlyInBitFiveAreDistinct() throws {
        var request = itemsRequest()
        request.setValue("request", forHTTPHeaderField: "X-Mark^")
        let converted = try HTTPRequestConversion.makeRequest(
            request,
            sessionHeaders: SessionHeaders(["X-Mark~": "session", "x-mark^": "overridden"]),
            body: nil
        )
        #expect(converted.headers.map(\.name).sorted() == ["X-Mark^", "X-Mark~"])
        #expect(converted.headers.first { $0.name == "X-Mark~" }?.value == "session")
        #expect(converted.headers.first { $0.name == "X-Mark^" }?.value == "request")
    }

    /// Found by fuzzing: two session headers whose names differ only in case were both sent,
    /// one field twice on the wire.
    @Test func ofTwoSessionHeadersDifferingOnlyInCaseOneIsSent() throws {
        let converted = try HTTPRequestConversion.makeRequest(
            itemsRequest(),
            sessionHeaders: SessionHeaders(["X-Mark": "upper", "x-mark": "lower"]),
            body: nil
        )
        let sent = converted.headers.filter { HeaderValidation.isSameName($0.name, "x-mark") }
        #expect(sent.count == 1)
        #expect(["upper", "lower"].contains(sent.first?.value))
    }

    // MARK: Multipart (FuzzMultipart)

    private func bodyText(_ parts: [MultipartFormData], boundary: String = "b") throws -> String {
        var bytes = Data()
        for segment in try MultipartEncoder(boundary: boundary).encode(parts).segments {
            guard case .bytes(let data) = segment else {
                Issue.record("an in-memory part became \(segment)")
                continue
            }
            bytes.append(data)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test(arguments: [
        ("multipart/form-data; charset=utf-8; boundary=\"my boundary\"", "my boundary", "\"my boundary\""),
        (
            "multipart/form-data; boundary=custom-t\u{FFFD}\u{FFFD}xt", "custom-t\u{FFFD}\u{FFFD}xt",
            "\"custom-t\u{FFFD}\u{FFFD}xt\""
        ),
        ("multipart/form-data; boundary=a\"b\\c", "a\"b\\c", "\"a\\\"b\\\\c\""),
        ("multipart/form-data; boundary=plain-token_1", "plain-token_1", "plain-token_1"),
    ])
    func boundaryThatIsNotATokenIsQuotedInTheContentType(requestType: String, boundary: String, parameter: String) {
        let encoder = MultipartEncoder(boundary: MultipartEncoder.boundary(forContentType: requestType))
        #expect(encoder.boundary == boundary)
        #expect(encoder.contentType == "multipart/form-data; boundary=\(parameter)")
        #expect(HeaderValidation.problem(name: "Content-Type", value: encoder.contentType) == nil)
    }

    /// `"\r\n"` is one `Character`: a filter over characters kept it in the part's header.
    @Test(arguments: [
        ("\u{01}na\"m:e\r\n", "\u{01}na\"m:e"),
        ("text/plain\r\nX-Injected: yes", "text/plainX-Injected: yes"),
        ("a\rb\nc", "abc"),
    ])
    func lineBreaksAreDroppedFromAPartType(mimeType: String, written: String) throws {
        let text = try bodyText([MultipartFormData(provider: .data(Data("x".utf8)), name: "f", mimeType: mimeType)])
        #expect(
            text
                == "--b\r\nContent-Disposition: form-data; name=\"f\"\r\nContent-Type: \(written)\r\n\r\nx\r\n--b--\r\n"
        )
    }

    @Test(arguments: [
        ("a\r\nb", "a%0D%0Ab"),
        ("*\r@*\r\n\u{07EE}\"\u{08}\r", "*%0D@*%0D%0A\u{07EE}%22\u{08}%0D"),
        ("na\"me\r\n", "na%22me%0D%0A"),
    ])
    func lineBreaksAndQuotesInNamesAreEscapedOneByOne(name: String, written: String) throws {
        let text = try bodyText([MultipartFormData(provider: .data(Data()), name: name, fileName: name)])
        #expect(
            text == "--b\r\nContent-Disposition: form-data; name=\"\(written)\"; filename=\"\(written)\"\r\n"
                + "Content-Type: application/octet-stream\r\n\r\n\r\n--b--\r\n"
        )
    }
}
