import Foundation
import HTTPTypes
import Hummingbird
import LoopbackServer
import Moya
import NIOCore
import Testing

/// Every `Task` case sent to a server that echoes what it received.
@Suite("Every Task over the wire")
struct NetworkTaskTests {
    private struct Payload: Codable, Sendable {
        let userName: String
    }

    /// Echoes the method, query, content type and body as JSON.
    private func addEcho(_ router: Router<BasicRequestContext>) {
        let handler: @Sendable (Request, BasicRequestContext) async throws -> Response = { request, _ in
            let body = try await request.body.collect(upTo: 16 << 20)
            let echo: [String: String] = [
                "method": request.method.rawValue,
                "query": request.uri.query ?? "",
                "contentType": request.headers[.contentType] ?? "",
                "body": String(buffer: body),
            ]
            let data = try JSONEncoder().encode(echo)
            return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(bytes: data)))
        }
        router.get("echo", use: handler)
        router.post("echo", use: handler)
        router.put("echo", use: handler)
    }

    private func echo(
        _ method: Moya.Method,
        _ task: @escaping @Sendable () -> Moya.Task
    ) async throws -> [String: String] {
        try await TestServer.with(addEcho) { server in
            let provider = MoyaProvider<DynamicTarget>()
            let response = try await provider.request(
                DynamicTarget(baseURL: server.baseURL, path: "/echo", method: method, makeTask: task)
            )
            return try response.map([String: String].self)
        }
    }

    @Test func requestPlainSendsNoBody() async throws {
        let echo = try await echo(.get) { .requestPlain }
        #expect(echo["method"] == "GET")
        #expect(echo["body"] == "")
    }

    @Test func requestDataSendsTheBytes() async throws {
        let echo = try await echo(.post) { .requestData(Data("raw bytes".utf8)) }
        #expect(echo["body"] == "raw bytes")
    }

    @Test func requestJSONEncodableSendsJSON() async throws {
        let echo = try await echo(.post) { .requestJSONEncodable(Payload(userName: "moya")) }
        #expect(echo["contentType"] == "application/json")
        #expect(echo["body"] == "{\"userName\":\"moya\"}")
    }

    @Test func requestCustomJSONEncodableUsesTheEncoder() async throws {
        let echo = try await echo(.post) {
            let encoder = JSONEncoder()
            encoder.keyEncodingStrategy = .convertToSnakeCase
            return .requestCustomJSONEncodable(Payload(userName: "moya"), encoder: encoder)
        }
        #expect(echo["body"] == "{\"user_name\":\"moya\"}")
    }

    @Test func requestParametersInTheQueryForGet() async throws {
        let echo = try await echo(.get) {
            .requestParameters(parameters: ["q": "swift nio", "page": 2], encoding: URLEncoding.default)
        }
        #expect(echo["query"] == "page=2&q=swift%20nio")
    }

    @Test func requestParametersInTheBodyForPost() async throws {
        let echo = try await echo(.post) {
            .requestParameters(parameters: ["a": "1", "b": true], encoding: URLEncoding.default)
        }
        #expect(echo["body"] == "a=1&b=1")
        #expect(echo["contentType"] == "application/x-www-form-urlencoded; charset=utf-8")
    }

    @Test func requestCompositeDataSendsBodyAndQuery() async throws {
        let echo = try await echo(.post) {
            .requestCompositeData(bodyData: Data("body".utf8), urlParameters: ["page": 1])
        }
        #expect(echo["body"] == "body")
        #expect(echo["query"] == "page=1")
    }

    @Test func requestCompositeParametersSendsBodyAndQuery() async throws {
        let echo = try await echo(.put) {
            .requestCompositeParameters(
                bodyParameters: ["name": "moya"],
                bodyEncoding: JSONEncoding.default,
                urlParameters: ["v": 2]
            )
        }
        #expect(echo["method"] == "PUT")
        #expect(echo["body"] == "{\"name\":\"moya\"}")
        #expect(echo["query"] == "v=2")
    }

    @Test func uploadCompositeMultipartSendsPartsAndQuery() async throws {
        let echo = try await echo(.post) {
            .uploadCompositeMultipart(
                [MultipartFormData(provider: .data(Data("x".utf8)), name: "field")],
                urlParameters: ["id": 7]
            )
        }
        #expect(echo["query"] == "id=7")
        #expect(echo["contentType"]?.hasPrefix("multipart/form-data; boundary=") == true)
        #expect(echo["body"]?.contains("name=\"field\"\r\n\r\nx\r\n") == true)
    }

    @Test func downloadParametersSendsTheParametersAndSavesTheBody() async throws {
        let destination = FileManager.default.temporaryDirectory.appendingPathComponent(
            "moya-download-params-\(UUID().uuidString).json"
        )
        try await TestServer.with(addEcho) { server in
            let provider = MoyaProvider<DynamicTarget>()
            let target = DynamicTarget(
                baseURL: server.baseURL,
                path: "/echo",
                makeTask: {
                    .downloadParameters(
                        parameters: ["file": "report"],
                        encoding: URLEncoding.queryString,
                        destination: { _, _ in (destination, []) }
                    )
                }
            )
            let response = try await provider.request(target)
            #expect(response.fileURL == destination)
            let saved = try JSONDecoder().decode([String: String].self, from: Data(contentsOf: destination))
            #expect(saved["query"] == "file=report")
        }
    }

    @Test func downloadProgressIsZeroUntilCompletedWithoutContentLength() async throws {
        let destination = FileManager.default.temporaryDirectory.appendingPathComponent(
            "moya-progress-\(UUID().uuidString)"
        )
        let log = EventLog()
        try await TestServer.with({ router in
            router.get("chunked") { _, _ in
                Response(
                    status: .ok,
                    body: ResponseBody { writer in
                        for _ in 0..<4 {
                            try await writer.write(ByteBuffer(repeating: 1, count: 10_000))
                        }
                        try await writer.finish(nil)
                    }
                )
            }
        }) { server in
            let provider = MoyaProvider<DynamicTarget>()
            let target = DynamicTarget.download(
                server.baseURL,
                path: "/chunked",
                to: destination,
                options: [.removePreviousFile]
            )
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                provider.request(
                    target,
                    callbackQueue: DispatchQueue(label: "progress"),
                    progress: { progress in
                        log.record("\(progress.progress) \(progress.completed)")
                    },
                    completion: { _ in continuation.resume() }
                )
            }
        }
        let events = log.all
        #expect(events.last == "1.0 true")
        #expect(events.dropLast().allSatisfy { $0 == "0.0 false" })
        #expect(events.count >= 2)
    }

    @Test func unwritableDestinationFailsAndLeavesNoTemporaryFile() async throws {
        let blocker = FileManager.default.temporaryDirectory.appendingPathComponent("moya-blocker-\(UUID().uuidString)")
        try Data("a file, not a directory".utf8).write(to: blocker)
        let destination = blocker.appendingPathComponent("inside/file.bin")
        try await TestServer.with({ router in
            router.get("file") { _, _ in "content" }
        }) { server in
            let provider = MoyaProvider<DynamicTarget>()
            let target = DynamicTarget.download(
                server.baseURL,
                path: "/file",
                to: destination,
                options: [.createIntermediateDirectories]
            )
            do {
                _ = try await provider.request(target)
                Issue.record("a destination under a file must fail")
            } catch {
                guard case .underlying(_, let response?) = error as? MoyaError else {
                    Issue.record("expected .underlying with the response, got \(error)")
                    return
                }
                #expect(response.statusCode == 200)
            }
        }
    }
}
