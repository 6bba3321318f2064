import Foundation
import Moya
import Testing

@Suite("Response")
struct ResponseTests {
    private static let url = URL(string: "https://api.example.test/zen")!

    private func httpResponse(_ statusCode: Int = 200, headers: [String: String] = [:]) -> HTTPURLResponse? {
        HTTPURLResponse(url: Self.url, statusCode: statusCode, httpVersion: "HTTP/1.1", headerFields: headers)
    }

    @Test func theInitializerKeepsWhatItIsGiven() {
        let request = URLRequest(url: Self.url)
        let http = httpResponse(201)
        let response = Response(statusCode: 201, data: Data("x".utf8), request: request, response: http)
        #expect(response.statusCode == 201)
        #expect(response.data == Data("x".utf8))
        #expect(response.request?.url == Self.url)
        #expect(response.response === http)
    }

    @Test func responsesWithTheSameStatusCodeAndDataAreEqual() {
        #expect(Response(statusCode: 200, data: Data("a".utf8)) == Response(statusCode: 200, data: Data("a".utf8)))
    }

    @Test func theRequestDoesNotTakePartInEquality() {
        let first = Response(statusCode: 200, data: Data(), request: URLRequest(url: Self.url))
        let second = Response(
            statusCode: 200,
            data: Data(),
            request: URLRequest(url: URL(string: "https://other.test")!)
        )
        #expect(first == second)
    }

    @Test func aDifferentStatusCodeOrBodyMakesResponsesDifferent() {
        let base = Response(statusCode: 200, data: Data("a".utf8))
        #expect(base != Response(statusCode: 201, data: Data("a".utf8)))
        #expect(base != Response(statusCode: 200, data: Data("b".utf8)))
    }

    @Test func aDifferentHTTPResponseMakesResponsesDifferent() {
        let http = httpResponse()
        let withHTTP = Response(statusCode: 200, data: Data(), response: http)
        #expect(withHTTP == Response(statusCode: 200, data: Data(), response: http))
        #expect(withHTTP != Response(statusCode: 200, data: Data()))
    }

    @Test func theDescriptionGivesTheStatusCodeAndDataLength() {
        let response = Response(statusCode: 404, data: Data(repeating: 0, count: 12))
        #expect(response.description == "Status Code: 404, Data Length: 12")
        #expect(response.debugDescription == response.description)
        #expect("\(response)" == response.description)
    }
}
