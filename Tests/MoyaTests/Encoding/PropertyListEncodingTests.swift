import Foundation
import Moya
import Testing

@Suite("PropertyListEncoding")
struct PropertyListEncodingTests {
    private static let url = URL(string: "https://api.example.test/items")!

    private func request() -> URLRequest {
        var request = URLRequest(url: Self.url)
        request.method = .post
        return request
    }

    private func decodedBody(_ request: URLRequest) throws -> NSDictionary? {
        guard let data = request.httpBody else { return nil }
        return try PropertyListSerialization.propertyList(from: data, format: nil) as? NSDictionary
    }

    private let parameters: Parameters = [
        "name": "Moya",
        "count": 3,
        "ratio": 0.5,
        "enabled": true,
        "tags": ["a", "b"],
        "blob": Data([0, 1, 2]),
        "created": Date(timeIntervalSince1970: 1_000_000),
        "nested": ["key": "value"],
    ]

    @Test func defaultEncodingWritesAnXMLPropertyList() throws {
        let encoded = try PropertyListEncoding.default.encode(request(), with: parameters)
        let text = encoded.httpBody.map { String(decoding: $0, as: UTF8.self) } ?? ""
        #expect(text.hasPrefix("<?xml"))
        #expect(try decodedBody(encoded) == parameters as NSDictionary)
    }

    @Test func binaryEncodingWritesABinaryPropertyList() throws {
        let encoded = try PropertyListEncoding.binary.encode(request(), with: parameters)
        #expect(encoded.httpBody?.starts(with: Data("bplist00".utf8)) == true)
        #expect(try decodedBody(encoded) == parameters as NSDictionary)
    }

    @Test func contentTypeBecomesApplicationPlist() throws {
        let encoded = try PropertyListEncoding.xml.encode(request(), with: ["a": 1])
        #expect(encoded.value(forHTTPHeaderField: "Content-Type") == "application/x-plist")
    }

    @Test func anExistingContentTypeIsKept() throws {
        var original = request()
        original.setValue("application/xml", forHTTPHeaderField: "Content-Type")
        let encoded = try PropertyListEncoding.default.encode(original, with: ["a": 1])
        #expect(encoded.value(forHTTPHeaderField: "Content-Type") == "application/xml")
    }

    @Test func nilParametersLeaveTheRequestAlone() throws {
        let encoded = try PropertyListEncoding.default.encode(request(), with: nil)
        #expect(encoded.httpBody == nil)
        #expect(encoded.value(forHTTPHeaderField: "Content-Type") == nil)
    }

    @Test func valuesAPropertyListCannotHoldThrow() {
        #expect {
            try PropertyListEncoding.default.encode(request(), with: ["list": ["ok", NSNull()]])
        } throws: { error in
            guard case .invalidPropertyListObject(let path, _)? = error as? ParameterEncodingError else { return false }
            return path == "$.list[1]"
        }
    }
}
