import Foundation
import Hummingbird
import LoopbackServer
import Moya
import Testing

/// Moya builds a multipart request whatever its method and refuses only to send one that
/// cannot carry the parts; here the refusal is a `MoyaError`, where Moya called `fatalError`.
@Suite("Sending a multipart task")
struct MultipartSendingTests {
    /// `count` small text parts, made where the task is built.
    private static func parts(_ count: Int) -> [MultipartFormData] {
        (0..<count).map { _ in
            MultipartFormData(provider: .data(Data("x".utf8)), name: "file", fileName: "x.txt", mimeType: "text/plain")
        }
    }

    /// Answers GET and POST on `/upload` with the method received, counting the requests.
    private func addUpload(hits: Counter) -> (Router<BasicRequestContext>) -> Void {
        { router in
            let handler: @Sendable (Request, BasicRequestContext) async throws -> String = { request, _ in
                hits.increment()
                _ = try await request.body.collect(upTo: 1 << 20)
                return request.method.rawValue
            }
            router.get("upload", use: handler)
            router.post("upload", use: handler)
        }
    }

    private func target(_ server: TestServer, _ method: Moya.Method, partCount: Int) -> DynamicTarget {
        DynamicTarget(
            baseURL: server.baseURL,
            path: "/upload",
            method: method,
            makeTask: { .uploadMultipart(Self.parts(partCount)) }
        )
    }

    /// Runs `request`, which must fail with `multipartNotSupported`, and returns its details.
    private func refusal(_ request: () async throws -> Moya.Response) async -> (method: String, partCount: Int)? {
        do {
            _ = try await request()
            Issue.record("the multipart request was sent")
        } catch {
            guard case .parameterEncoding(let inner)? = error as? MoyaError,
                case let .multipartNotSupported(method, partCount)? = inner as? ParameterEncodingError
            else {
                Issue.record("expected .parameterEncoding(.multipartNotSupported), got \(error)")
                return nil
            }
            return (method, partCount)
        }
        return nil
    }

    @Test func aMultipartGetFailsWithParameterEncodingAndNeverReachesTheServer() async throws {
        let hits = Counter()
        try await TestServer.with(addUpload(hits: hits)) { server in
            let provider = MoyaProvider<DynamicTarget>()
            let refused = await refusal { try await provider.request(target(server, .get, partCount: 1)) }
            #expect(refused?.method == "GET")
            #expect(refused?.partCount == 1)
        }
        #expect(hits.count == 0)
    }

    @Test func aMultipartTaskWithNoPartsFailsWithParameterEncoding() async throws {
        let hits = Counter()
        try await TestServer.with(addUpload(hits: hits)) { server in
            let provider = MoyaProvider<DynamicTarget>()
            let refused = await refusal { try await provider.request(target(server, .post, partCount: 0)) }
            #expect(refused?.partCount == 0)
        }
        #expect(hits.count == 0)
    }

    @Test func aMultipartPostIsSent() async throws {
        let hits = Counter()
        try await TestServer.with(addUpload(hits: hits)) { server in
            let provider = MoyaProvider<DynamicTarget>()
            let response = try await provider.request(target(server, .post, partCount: 1))
            #expect(try response.mapString() == "POST")
        }
        #expect(hits.count == 1)
    }

    @Test func theMethodCheckedIsTheOneARequestClosureLeftOnTheRequest() async throws {
        try await TestServer.with(addUpload(hits: Counter())) { server in
            let provider = MoyaProvider<DynamicTarget>(requestClosure: { endpoint, done in
                do {
                    var request = try endpoint.urlRequest()
                    request.httpMethod = "POST"
                    done(.success(request))
                } catch {
                    done(.failure(error as? MoyaError ?? .underlying(error, nil)))
                }
            })
            let response = try await provider.request(target(server, .get, partCount: 1))
            #expect(try response.mapString() == "POST")
        }
    }

    @Test func aStubbedMultipartGetIsAnsweredAsInMoya() async throws {
        let provider = MoyaProvider<DynamicTarget>(stubClosure: MoyaProvider.immediatelyStub)
        let stubbed = DynamicTarget(
            baseURL: URL(fileURLWithPath: "/"),
            path: "/upload",
            method: .get,
            makeTask: { .uploadMultipart(Self.parts(1)) }
        )
        let response = try await provider.request(stubbed)
        #expect(response.statusCode == 200)
    }
}
