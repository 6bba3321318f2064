import Foundation
import HTTPTypes
import Hummingbird
import LoopbackServer
import Moya
import NIOCore
import Testing

/// A target that declares its error body gets it decoded on every surface; one that does not
/// behaves as in Moya 15.
@Suite("Typed error bodies over the network")
struct ErrorBodyTests {
    struct APIError: Decodable, Sendable, Equatable {
        let code: String
        let message: String
    }

    struct User: Decodable, Equatable {
        let login: String
    }

    struct ErrorAPI: DecodableErrorTarget {
        typealias ErrorBody = APIError
        var baseURL: URL
        var path: String
        var method: Moya.Method { .get }
        var task: Moya.Task { .requestPlain }
        var headers: [String: String]? { nil }
    }

    private func addRoutes(_ router: Router<BasicRequestContext>) {
        @Sendable func json(_ status: HTTPResponse.Status, _ text: String) -> Hummingbird.Response {
            Hummingbird.Response(
                status: status,
                headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: text))
            )
        }
        router.get("limited") { _, _ in json(.tooManyRequests, #"{"code":"rate_limited","message":"slow down"}"#) }
        router.get("broken") { _, _ in json(.internalServerError, "oops") }
        router.get("user") { _, _ in json(.ok, #"{"login":"moya"}"#) }
    }

    @Test func aCallbackFailureCarriesTheDecodedBodyAndPluginsSeeIt() async throws {
        try await TestServer.with(addRoutes) { server in
            let plugin = StreamPluginRecorder()
            let provider = MoyaProvider<ErrorAPI>(plugins: [plugin])
            let result = await withCheckedContinuation { continuation in
                provider.request(ErrorAPI(baseURL: server.baseURL, path: "/limited"), callbackQueue: .global()) {
                    continuation.resume(returning: $0)
                }
            }
            guard case .failure(let error) = result else {
                Issue.record("a 429 with an error body must fail")
                return
            }
            #expect(error.errorBody(as: APIError.self) == APIError(code: "rate_limited", message: "slow down"))
            #expect(error.response?.statusCode == 429)
            #expect("\(error)".contains("429"))
            guard case .failure(let heard)? = await plugin.nextResult() else {
                Issue.record("the plugin must hear the failure")
                return
            }
            #expect(heard.errorBody(as: APIError.self)?.code == "rate_limited")
        }
    }

    @Test func aBodyThatDoesNotDecodeKeepsTheStatusTheRawBodyAndTheDecodingError() async throws {
        try await TestServer.with(addRoutes) { server in
            let provider = MoyaProvider<ErrorAPI>()
            do {
                _ = try await provider.request(ErrorAPI(baseURL: server.baseURL, path: "/broken"))
                Issue.record("a 500 must fail")
            } catch {
                let undecodable = try #require((error as? MoyaError)?.undecodableErrorBody)
                #expect(undecodable.response.statusCode == 500)
                #expect(undecodable.response.data == Data("oops".utf8))
                #expect(undecodable.decodingError is DecodingError)
                #expect((error as? MoyaError)?.errorBody(as: APIError.self) == nil)
                #expect(undecodable.description.contains("500"))
            }
        }
    }

    @Test func aTargetThatDoesNotDeclareAnErrorBodyIsUnchanged() async throws {
        try await TestServer.with(addRoutes) { server in
            let response = try await MoyaProvider<DynamicTarget>()
                .request(DynamicTarget(baseURL: server.baseURL, path: "/limited"))
            #expect(response.statusCode == 429)
        }
    }

    @Test func theAsyncAPIThrowsTheErrorBodyTypedAndDecodesTheSuccess() async throws {
        try await TestServer.with(addRoutes) { server in
            let provider = MoyaProvider<ErrorAPI>()
            let user = try await provider.request(
                ErrorAPI(baseURL: server.baseURL, path: "/user"),
                as: User.self,
                errorBody: APIError.self
            )
            #expect(user == User(login: "moya"))
            do throws(ErrorBodyFailure<APIError>) {
                _ = try await provider.request(
                    ErrorAPI(baseURL: server.baseURL, path: "/limited"),
                    as: User.self,
                    errorBody: APIError.self
                )
                Issue.record("a 429 must throw")
            } catch .errorBody(let body, let response) {
                #expect(body.code == "rate_limited")
                #expect(response.statusCode == 429)
            } catch .moya(let error) {
                Issue.record("expected the error body, got \(error)")
            }
        }
    }

    @Test func theAsyncAPIReadsTheErrorBodyOfATargetThatDeclaresNone() async throws {
        try await TestServer.with(addRoutes) { server in
            let provider = MoyaProvider<DynamicTarget>()
            do throws(ErrorBodyFailure<APIError>) {
                _ = try await provider.request(
                    DynamicTarget(baseURL: server.baseURL, path: "/limited"),
                    as: User.self,
                    errorBody: APIError.self
                )
                Issue.record("a 429 must throw")
            } catch .errorBody(let body, _) {
                #expect(body.message == "slow down")
            } catch .moya(let error) {
                Issue.record("expected the error body, got \(error)")
            }
            do throws(ErrorBodyFailure<APIError>) {
                _ = try await provider.request(
                    DynamicTarget(baseURL: server.baseURL, path: "/broken"),
                    as: User.self,
                    errorBody: APIError.self
                )
                Issue.record("a 500 must throw")
            } catch .errorBody(let body, _) {
                Issue.record("\"oops\" is no APIError: \(body)")
            } catch .moya(let error) {
                #expect(error.undecodableErrorBody?.response.statusCode == 500)
            }
        }
    }
}
