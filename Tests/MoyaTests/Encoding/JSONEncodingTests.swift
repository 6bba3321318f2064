import Foundation
import Moya
import Testing

@Suite("JSONEncoding")
struct JSONEncodingTests {
    private static let url = URL(string: "https://api.example.test/items?page=1")!

    private func request(_ method: Moya.Method = .post) -> URLRequest {
        var request = URLRequest(url: Self.url)
        request.method = method
        return request
    }

    private func body(_ request: URLRequest) -> String? {
        request.httpBody.map { String(decoding: $0, as: UTF8.self) }
    }

    private func decodedBody(_ request: URLRequest) throws -> NSDictionary? {
        guard let data = request.httpBody else { return nil }
        return try JSONSerialization.jsonObject(with: data) as? NSDictionary
    }

    /// Whether `error` is the encoding error for an invalid JSON value at `path`.
    private func isInvalidJSONObject(_ error: any Error, at path: String) -> Bool {
        guard case .invalidJSONObject(let errorPath, _)? = error as? ParameterEncodingError else { return false }
        return errorPath == path
    }

    @Test func defaultEncodingWritesTheParametersAsACompactJSONBody() throws {
        let encoded = try JSONEncoding.default.encode(
            request(),
            with: ["name": "Moya", "tags": ["a", "b"], "count": 2]
        )
        #expect(try decodedBody(encoded) == ["name": "Moya", "tags": ["a", "b"], "count": 2] as NSDictionary)
        #expect(body(encoded)?.contains("\n") == false)
        #expect(body(encoded)?.contains(": ") == false)
    }

    @Test func prettyPrintedEncodingIndentsTheBody() throws {
        let encoded = try JSONEncoding.prettyPrinted.encode(request(), with: ["name": "Moya", "count": 2])
        #expect(try decodedBody(encoded) == ["name": "Moya", "count": 2] as NSDictionary)
        #expect(body(encoded)?.contains("\n  ") == true)
    }

    @Test func writingOptionsAreHonoured() throws {
        let encoding = JSONEncoding(options: [.sortedKeys, .withoutEscapingSlashes])
        let encoded = try encoding.encode(request(), with: ["b": "x/y", "a": 1, "c": ["z": true, "y": NSNull()]])
        #expect(body(encoded) == #"{"a":1,"b":"x/y","c":{"y":null,"z":true}}"#)
    }

    @Test func booleansStayJSONBooleans() throws {
        let encoded = try JSONEncoding(options: .sortedKeys).encode(
            request(),
            with: ["off": false, "on": true, "one": 1]
        )
        #expect(body(encoded) == #"{"off":false,"on":true,"one":1}"#)
    }

    @Test func contentTypeBecomesApplicationJSON() throws {
        let encoded = try JSONEncoding.default.encode(request(), with: ["a": 1])
        #expect(encoded.value(forHTTPHeaderField: "Content-Type") == "application/json")
    }

    @Test func anExistingContentTypeIsKept() throws {
        var original = request()
        original.setValue("application/vnd.api+json", forHTTPHeaderField: "Content-Type")
        let encoded = try JSONEncoding.default.encode(original, with: ["a": 1])
        #expect(encoded.value(forHTTPHeaderField: "Content-Type") == "application/vnd.api+json")
        #expect(try decodedBody(encoded) == ["a": 1] as NSDictionary)
    }

    @Test func theURLIsLeftAloneEvenForGet() throws {
        let encoded = try JSONEncoding.default.encode(request(.get), with: ["a": 1])
        #expect(encoded.url == Self.url)
        #expect(try decodedBody(encoded) == ["a": 1] as NSDictionary)
    }

    @Test func nilParametersLeaveTheRequestAlone() throws {
        let encoded = try JSONEncoding.default.encode(request(), with: nil)
        #expect(encoded.httpBody == nil)
        #expect(encoded.value(forHTTPHeaderField: "Content-Type") == nil)
        #expect(encoded.url == Self.url)
    }

    @Test func emptyParametersEncodeAsAnEmptyObject() throws {
        let encoded = try JSONEncoding.default.encode(request(), with: [:])
        #expect(body(encoded) == "{}")
    }

    @Test func aTopLevelArrayCanBeEncoded() throws {
        let encoded = try JSONEncoding.default.encode(request(), withJSONObject: [1, "two", ["three": 3]] as [Any])
        let decoded = try JSONSerialization.jsonObject(with: encoded.httpBody ?? Data()) as? NSArray
        #expect(decoded == [1, "two", ["three": 3]] as NSArray)
        #expect(encoded.value(forHTTPHeaderField: "Content-Type") == "application/json")
    }

    @Test func aTopLevelFragmentIsRejected() {
        #expect {
            try JSONEncoding.default.encode(request(), withJSONObject: "just a string")
        } throws: { error in
            isInvalidJSONObject(error, at: "$")
        }
    }

    @Test func aDateIsAnInvalidJSONValueAndThrows() {
        #expect {
            try JSONEncoding.default.encode(request(), with: ["when": Date()])
        } throws: { error in
            isInvalidJSONObject(error, at: "$.when")
        }
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity])
    func nonFiniteNumbersThrowInsteadOfTrapping(number: Double) {
        #expect {
            try JSONEncoding.default.encode(request(), with: ["values": [1.0, number]])
        } throws: { error in
            isInvalidJSONObject(error, at: "$.values[1]")
        }
    }

    @Test func nonFiniteFloatsThrowToo() {
        #expect {
            try JSONEncoding.default.encode(request(), with: ["value": Float.nan])
        } throws: { error in
            isInvalidJSONObject(error, at: "$.value")
        }
    }

    @Test func valuesOfOtherTypesThrow() {
        struct Point { var x = 1 }
        #expect {
            try JSONEncoding.default.encode(request(), with: ["nested": ["point": Point()]])
        } throws: { error in
            isInvalidJSONObject(error, at: "$.nested.point")
        }
        #expect {
            try JSONEncoding.default.encode(request(), with: ["data": Data([1, 2])])
        } throws: { error in
            isInvalidJSONObject(error, at: "$.data")
        }
    }

    @Test func aNilInsideTheParametersThrowsWhileNSNullIsNull() throws {
        let missing: Int? = nil
        #expect {
            try JSONEncoding.default.encode(request(), with: ["value": missing as Any])
        } throws: { error in
            isInvalidJSONObject(error, at: "$.value")
        }
        let encoded = try JSONEncoding.default.encode(request(), with: ["value": NSNull()])
        #expect(body(encoded) == #"{"value":null}"#)
    }

    @Test func aFailedEncodingLeavesNoPartialBody() throws {
        let original = request()
        _ = try? JSONEncoding.default.encode(original, with: ["bad": Double.nan])
        #expect(original.httpBody == nil)
        #expect(original.value(forHTTPHeaderField: "Content-Type") == nil)
    }

    @Test func theEncodingErrorExplainsWhatAndWhere() {
        let error = ParameterEncodingError.invalidJSONObject(
            path: "$.when",
            reason: "a value of type Date is not a JSON type"
        )
        #expect(error.description.contains("$.when"))
        #expect(error.description.contains("Date"))
    }
}
