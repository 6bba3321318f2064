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
}
