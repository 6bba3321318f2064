import Foundation
import Moya
import MoyaTesting
import Testing

@Suite("Sample responses with headers")
struct SampleResponseTests {
    @Test func aResponseStubCarriesStatusHeadersAndBody() async throws {
        let provider = MoyaProvider<Greeting>.stubbed {
            .response(statusCode: 201, headers: ["X-Rate-Limit": "5", "ETag": "\"v1\""], data: Data("made".utf8))
        }
        let response = try await provider.request(.hello)
        #expect(response.statusCode == 201)
        #expect(response.data == Data("made".utf8))
        #expect(response.response?.statusCode == 201)
        #expect(response.response?.value(forHTTPHeaderField: "x-rate-limit") == "5")
        #expect(response.response?.value(forHTTPHeaderField: "ETag") == "\"v1\"")
    }

    @Test func aJSONStubSetsTheContentTypeAndMapsAsJSON() async throws {
        let provider = MoyaProvider<Greeting>.stubbed { .json(#"{"name":"moya"}"#) }
        let response = try await provider.request(.hello)
        #expect(response.statusCode == 200)
        #expect(response.response?.value(forHTTPHeaderField: "Content-Type") == "application/json")
        let json = try #require(try response.mapJSON() as? [String: String])
        #expect(json == ["name": "moya"])
    }

    @Test func aJSONStubKeepsAContentTypeItIsGiven() async throws {
        let provider = MoyaProvider<Greeting>.stubbed {
            .json("{}", headers: ["content-type": "application/problem+json"])
        }
        let response = try await provider.request(.hello)
        #expect(response.response?.value(forHTTPHeaderField: "Content-Type") == "application/problem+json")
    }

    @Test func aResponseStubFailsValidationLikeANetworkResponse() async throws {
        struct Validated: TargetType {
            var baseURL: URL { URL(fileURLWithPath: "/") }
            var path: String { "" }
            var method: Moya.Method { .get }
            var task: Moya.Task { .requestPlain }
            var headers: [String: String]? { nil }
            var validationType: ValidationType { .successCodes }
        }
        let provider = MoyaProvider<Validated>(
            endpointClosure: { target in
                MoyaProvider.defaultEndpointMapping(for: target)
                    .replacing(sampleResponseClosure: { .response(statusCode: 429, headers: ["Retry-After": "3"]) })
            },
            stubClosure: MoyaProvider.immediatelyStub
        )
        let error = await #expect(throws: MoyaError.self) { try await provider.request(Validated()) }
        #expect(error?.response?.statusCode == 429)
        #expect(error?.response?.response?.value(forHTTPHeaderField: "Retry-After") == "3")
    }
}
