import Foundation
import Hummingbird
import LoopbackServer
import Moya
import NIOCore
import Testing

/// A body that does not map says the status when the status was not 2xx: a `404`'s error
/// message decoded as the requested type is the usual cause, and the status is the news.
@Suite("Mapping errors name a status that is not 2xx")
struct MappingErrorStatusTests {
    struct User: Decodable {
        let login: String
    }

    @Test func decodingA404ThroughRequestAsSaysTheStatus() async throws {
        try await TestServer.with({ router in
            router.get("users/:name") { _, _ in
                Hummingbird.Response(
                    status: .notFound,
                    headers: [.contentType: "application/json"],
                    body: .init(byteBuffer: ByteBuffer(string: "{\"message\":\"Not Found\"}"))
                )
            }
        }) { server in
            let provider = MoyaProvider<DynamicTarget>()
            do {
                _ = try await provider.request(
                    DynamicTarget(baseURL: server.baseURL, path: "/users/nobody"),
                    as: User.self
                )
                Issue.record("a 404's body is not a User")
            } catch {
                guard case .objectMapping(_, let response) = error as? MoyaError else {
                    Issue.record("expected objectMapping, got \(error)")
                    return
                }
                #expect(response.statusCode == 404)
                #expect(error.localizedDescription.contains("status code was 404"))
                #expect("\(error)".contains("login"))
            }
        }
    }

    @Test func everyMappingErrorOfANon2xxResponseSaysTheStatus() {
        let response = Moya.Response(statusCode: 500, data: Data("oops".utf8))
        let errors: [MoyaError] = [
            .jsonMapping(response), .stringMapping(response), .imageMapping(response),
            .objectMapping(CocoaError(.coderReadCorrupt), response),
        ]
        for error in errors {
            #expect(error.localizedDescription.contains("status code was 500"), "\(error)")
        }
    }

    @Test func aMappingErrorOfA2xxResponseSaysNothingOfTheStatus() {
        let error = MoyaError.jsonMapping(Moya.Response(statusCode: 200, data: Data("oops".utf8)))
        #expect(!error.localizedDescription.contains("status code"))
    }
}
