import Foundation
import Moya
import MoyaTesting
import Testing

/// A target that is not an enum: its fixtures are named after its path.
struct RawTarget: TargetType {
    var baseURL: URL
    var path: String
    var method: Moya.Method = .post
    var body: String = ""
    var query: String = ""
    var task: Moya.Task { .requestData(Data(body.utf8)) }
    var headers: [String: String]? = nil
}

@Suite("Fixture names are stable and readable")
struct FixtureNamingTests {
    private let recorder = Recorder(
        directory: URL(fileURLWithPath: "/fixtures"),
        mode: .replay,
        redaction: Redaction(queryParameters: ["key"])
    )

    private func name(_ target: RawTarget) -> String? {
        recorder.fixtureURL(
            for: target,
            endpointClosure: { target in
                Endpoint(
                    url: target.baseURL.appendingPathComponent(target.path).absoluteString + target.query,
                    sampleResponseClosure: { .networkResponse(200, Data()) },
                    method: target.method,
                    task: target.task,
                    httpHeaderFields: target.headers
                )
            }
        )?.path
    }

    private func target(
        host: String = "http://a.example",
        path: String = "/v1/users",
        body: String = "",
        query: String = ""
    ) -> RawTarget {
        RawTarget(baseURL: URL(string: host) ?? URL(fileURLWithPath: "/"), path: path, body: body, query: query)
    }

    @Test func aNonEnumTargetIsNamedAfterItsPath() throws {
        let path = try #require(name(target()))
        #expect(path.wholeMatch(of: /\/fixtures\/RawTarget\/v1_users-POST-[0-9a-f]{8}\.json/) != nil, "\(path)")
    }

    @Test func theSameRequestAlwaysGetsTheSameName() {
        #expect(name(target(body: "x")) == name(target(body: "x")))
    }

    @Test func bodyQueryAndPathChangeTheName() {
        let base = name(target(body: "a", query: "?page=1"))
        #expect(base != name(target(body: "b", query: "?page=1")))
        #expect(base != name(target(body: "a", query: "?page=2")))
        #expect(base != name(target(path: "/v1/other", body: "a", query: "?page=1")))
    }

    @Test func jsonKeyOrderQueryOrderHostAndRedactedValuesDoNotChangeTheName() {
        #expect(
            name(target(body: #"{"a":1,"b":[true,null]}"#)) == name(target(body: #"{ "b": [true, null], "a": 1 }"#))
        )
        #expect(name(target(query: "?a=1&b=2")) == name(target(query: "?b=2&a=1")))
        #expect(name(target(host: "http://a.example")) == name(target(host: "https://b.example:8443")))
        #expect(name(target(query: "?key=one")) == name(target(query: "?key=two")))
    }

    @Test func multiTargetIsNamedAfterTheTargetItWraps() throws {
        let recorder = Recorder(directory: URL(fileURLWithPath: "/fixtures"), mode: .replay)
        let wrapped = try #require(recorder.fixtureURL(for: MultiTarget(Catalog.items(page: 1))))
        let plain = try #require(recorder.fixtureURL(for: Catalog.items(page: 1)))
        #expect(wrapped == plain)
        #expect(plain.lastPathComponent.hasPrefix("items-GET-"))
        #expect(plain.deletingLastPathComponent().lastPathComponent == "Catalog")
    }
}
