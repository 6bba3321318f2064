import Foundation
import Moya
import Testing

@Suite("Endpoint equality, as in-flight tracking uses it")
struct EndpointEqualityTests {
    private func endpoint(
        url: String = "https://api.example.test/items",
        method: Moya.Method = .post,
        task: Moya.Task = .requestPlain,
        headers: [String: String]? = nil
    ) -> Endpoint {
        Endpoint(
            url: url,
            sampleResponseClosure: { .networkResponse(200, Data()) },
            method: method,
            task: task,
            httpHeaderFields: headers
        )
    }

    @Test func endpointsBuildingTheSameRequestAreEqualWithEqualHashes() {
        let lhs = endpoint(task: .requestData(Data("a".utf8)), headers: ["X-A": "1"])
        let rhs = endpoint(task: .requestData(Data("a".utf8)), headers: ["X-A": "1"])
        #expect(lhs == rhs)
        #expect(lhs.hashValue == rhs.hashValue)
    }

    @Test func differentBodiesAreDifferentEndpoints() {
        #expect(endpoint(task: .requestData(Data("a".utf8))) != endpoint(task: .requestData(Data("b".utf8))))
        #expect(
            endpoint(task: .requestParameters(parameters: ["id": 1], encoding: JSONEncoding.default))
                != endpoint(task: .requestParameters(parameters: ["id": 2], encoding: JSONEncoding.default))
        )
    }

    @Test func differentHeadersAreDifferentEndpoints() {
        #expect(endpoint(headers: ["Authorization": "Bearer a"]) != endpoint(headers: ["Authorization": "Bearer b"]))
        #expect(endpoint(headers: ["X-A": "1"]) != endpoint())
    }

    @Test func differentMethodsAndURLsAreDifferentEndpoints() {
        #expect(endpoint(method: .get) != endpoint(method: .post))
        #expect(endpoint(url: "https://api.example.test/a") != endpoint(url: "https://api.example.test/b"))
    }

    @Test func uploadsOfDifferentFilesAreDifferentEndpoints() {
        let a = URL(fileURLWithPath: "/tmp/a.bin")
        let b = URL(fileURLWithPath: "/tmp/b.bin")
        #expect(endpoint(task: .uploadFile(a)) == endpoint(task: .uploadFile(a)))
        #expect(endpoint(task: .uploadFile(a)) != endpoint(task: .uploadFile(b)))
    }

    @Test func addingHeadersMakesADifferentEndpoint() {
        let base = endpoint()
        #expect(base.adding(newHTTPHeaderFields: ["X-B": "2"]) != base)
        #expect(base.adding(newHTTPHeaderFields: ["X-B": "2"]) == base.adding(newHTTPHeaderFields: ["X-B": "2"]))
    }

    // MARK: JSON bodies

    private func json(_ text: String, headers: [String: String]? = ["Content-Type": "application/json"]) -> Endpoint {
        endpoint(task: .requestData(Data(text.utf8)), headers: headers)
    }

    @Test func jsonBodiesDifferingOnlyInKeyOrderAreEqualWithEqualHashes() {
        let lhs = json(#"{"a":1,"b":{"x":true,"y":[1,2]},"c":"z"}"#)
        let rhs = json(#"{"c":"z","b":{"y":[1,2],"x":true},"a":1}"#)
        #expect(lhs == rhs)
        #expect(lhs.hashValue == rhs.hashValue)
    }

    @Test func jsonBodiesAreComparedByContentWhateverTheirContentType() {
        let lhs = json(#"{"a":1,"b":2}"#, headers: nil)
        let rhs = json(#"{"b":2,"a":1}"#, headers: nil)
        #expect(lhs == rhs)
        #expect(lhs.hashValue == rhs.hashValue)
    }

    @Test func jsonBodiesWithDifferentContentAreDifferentEndpoints() {
        #expect(json(#"{"a":1,"b":2}"#) != json(#"{"a":1,"b":3}"#))
        #expect(json(#"{"a":1}"#) != json(#"{"a":1,"b":2}"#))
        // Arrays keep their order: it is part of what they say.
        #expect(json(#"{"a":[1,2]}"#) != json(#"{"a":[2,1]}"#))
    }

    @Test func bodiesThatAreNotJSONAreComparedByteForByte() {
        #expect(json("{not json", headers: nil) != json("{not  json", headers: nil))
        #expect(json("a=1&b=2", headers: nil) != json("b=2&a=1", headers: nil))
    }

    @Test func endpointsEncodingTheSameParametersAreEqualEveryTime() {
        // Enough keys that Linux's dictionaries come out in a different order from one
        // encoding to the next.
        let parameters = Dictionary(uniqueKeysWithValues: (0..<32).map { ("key\($0)", $0) })
        let endpoints = (0..<8).map { _ in
            endpoint(task: .requestParameters(parameters: parameters, encoding: JSONEncoding.default))
        }
        for other in endpoints {
            #expect(other == endpoints[0])
            #expect(other.hashValue == endpoints[0].hashValue)
        }
        #expect(Set(endpoints).count == 1)
    }

    @Test func endpointsEncodingTheSameEncodableDictionaryAreEqualEveryTime() {
        let body = Dictionary(uniqueKeysWithValues: (0..<32).map { ("key\($0)", "value\($0)") })
        let lhs = endpoint(task: .requestJSONEncodable(body))
        let rhs = endpoint(task: .requestJSONEncodable(body))
        #expect(lhs == rhs)
        #expect(lhs.hashValue == rhs.hashValue)
    }

    @Test func multipartEndpointsOnAGetCompareAsOtherEndpointsDo() {
        let part = MultipartFormData(provider: .data(Data("x".utf8)), name: "file")
        #expect(
            endpoint(method: .get, task: .uploadMultipart([part]))
                == endpoint(method: .get, task: .uploadMultipart([part]))
        )
        #expect(
            endpoint(method: .get, task: .uploadMultipart([part]))
                != endpoint(method: .post, task: .uploadMultipart([part]))
        )
    }
}
