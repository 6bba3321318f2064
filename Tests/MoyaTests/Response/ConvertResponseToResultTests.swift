import Foundation
import Moya
import Testing

@Suite("convertResponseToResult, Moya 15's free function")
struct ConvertResponseToResultTests {
    let url = URL(string: "https://example.com/zen") ?? URL(fileURLWithPath: "/")

    private func httpResponse(_ status: Int) -> HTTPURLResponse? {
        HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: ["X-Kind": "test"])
    }

    @Test func aResponseWithoutAnErrorSucceedsWithItsStatusBodyAndRequest() throws {
        let request = URLRequest(url: url)
        let result = convertResponseToResult(httpResponse(201), request: request, data: Data("hi".utf8), error: nil)
        let response = try result.get()
        #expect(response.statusCode == 201)
        #expect(response.data == Data("hi".utf8))
        #expect(response.request?.url == url)
        #expect(response.response?.value(forHTTPHeaderField: "X-Kind") == "test")
    }

    @Test func aResponseWithoutDataHasAnEmptyBody() throws {
        let response = try convertResponseToResult(httpResponse(204), request: nil, data: nil, error: nil).get()
        #expect(response.data.isEmpty)
    }

    @Test func anErrorWinsOverTheResponseAndKeepsIt() {
        let underlying = URLError(.networkConnectionLost)
        let result = convertResponseToResult(
            httpResponse(200),
            request: nil,
            data: Data("part".utf8),
            error: underlying
        )
        guard case .failure(.underlying(let error, let response?)) = result else {
            Issue.record("expected .underlying with the response, got \(result)")
            return
        }
        #expect((error as? URLError)?.code == .networkConnectionLost)
        #expect(response.statusCode == 200)
        #expect(response.data == Data("part".utf8))
    }

    @Test func anErrorWithoutAResponseIsUnderlyingWithNoResponse() {
        let result = convertResponseToResult(nil, request: nil, data: nil, error: URLError(.timedOut))
        guard case .failure(.underlying(let error, nil)) = result else {
            Issue.record("expected .underlying(_, nil), got \(result)")
            return
        }
        #expect((error as? URLError)?.code == .timedOut)
    }

    @Test func neitherAResponseNorAnErrorIsAnUnknownURLError() {
        let result = convertResponseToResult(nil, request: nil, data: Data("x".utf8), error: nil)
        guard case .failure(.underlying(let error as NSError, nil)) = result else {
            Issue.record("expected .underlying(_, nil), got \(result)")
            return
        }
        #expect(error.domain == NSURLErrorDomain)
        #expect(error.code == NSURLErrorUnknown)
    }
}
