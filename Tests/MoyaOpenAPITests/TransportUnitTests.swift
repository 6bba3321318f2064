#if OpenAPI
import Foundation
import HTTPTypes
import Moya
import Testing

@testable import MoyaOpenAPI

@Suite("MoyaTransport's request mapping and delivery choice")
struct TransportUnitTests {
    @Test(arguments: [
        ("http://host/api/v1", "/greetings/Ada%20L?language=fr", "http://host/api/v1/greetings/Ada%20L?language=fr"),
        ("http://host/api/v1/", "/greetings/a%2Fb", "http://host/api/v1/greetings/a%2Fb"),
        ("http://host:8080", "/notes", "http://host:8080/notes"),
        ("http://host/api?key=1", "/notes?page=2", "http://host/api/notes?page=2"),
        ("http://host/api", "", "http://host/api"),
    ])
    func theURLKeepsTheServerURLsPathAndTheGeneratedEncoding(base: String, path: String, expected: String) throws {
        let request = HTTPRequest(method: .get, scheme: nil, authority: nil, path: path)
        let url = MoyaTransport.url(of: request, baseURL: try #require(URL(string: base)))
        #expect(url?.absoluteString == expected)
    }

    @Test(arguments: [
        ("application/json", ResponseDelivery.buffered),
        ("application/problem+json; q=0.9, application/json", .buffered),
        ("text/plain", .buffered),
        ("application/octet-stream", .streamed),
        ("text/event-stream", .streamed),
        ("application/json, application/octet-stream", .streamed),
        ("*/*", .streamed),
        ("", .streamed),
    ])
    func responsesAreBufferedOnlyWhenEveryAcceptedTypeIsDecodedWhole(accept: String, expected: ResponseDelivery) {
        var request = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/")
        if !accept.isEmpty {
            request.headerFields[.accept] = accept
        }
        #expect(ResponseDelivery.default(for: request) == expected)
    }

    @Test func anOperationIsNamedByItsOperationIDWhereMoyaNamesATargetCase() throws {
        let request = HTTPRequest(method: .post, scheme: nil, authority: nil, path: "/notes")
        let operation = OpenAPIOperation(
            operationID: "createNote",
            request: request,
            url: try #require(URL(string: "http://host/notes")),
            body: nil
        )
        #expect("\(operation)" == "createNote")
        let mirror = Mirror(reflecting: operation)
        #expect(mirror.displayStyle == .enum)
        #expect(mirror.children.first?.label == "createNote")
        #expect(operation.method == .post)
        #expect(URL(target: operation).absoluteString == "http://host/notes")
    }

    @Test func theSessionSetsTheLengthHeadersAndRepeatedFieldsAreJoined() {
        var fields = HTTPFields()
        fields[.contentLength] = "12"
        fields.append(HTTPField(name: .accept, value: "application/json"))
        fields.append(HTTPField(name: .accept, value: "text/plain"))
        fields.append(HTTPField(name: .cookie, value: "a=1"))
        fields.append(HTTPField(name: .cookie, value: "b=2"))
        let headers = HTTPFieldsConversion.headers(of: fields)
        #expect(headers == ["Accept": "application/json, text/plain", "Cookie": "a=1; b=2"])
    }
}
#endif
