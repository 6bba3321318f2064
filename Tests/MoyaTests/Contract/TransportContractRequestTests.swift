import Foundation
import HTTPTypes
import Hummingbird
import LoopbackServer
import NIOCore
import Testing

@testable import Moya

/// Requests and bodies, the same through every transport: what the server receives and what
/// the caller gets back.
@Suite("Transport contract: requests and bodies")
struct TransportContractRequestTests {
    /// `/echo` answers with the request's body, its `Content-Type` and the headers named in
    /// `X-Echo`, so that a test sees what went on the wire.
    private func addEcho(_ router: Router<BasicRequestContext>) {
        router.on("echo", method: .post) { request, _ -> Hummingbird.Response in
            let body = try await request.body.collect(upTo: 16 << 20)
            var headers = HTTPFields()
            headers[.contentType] = request.headers[.contentType] ?? "none"
            for name in (request.headers[HTTPField.Name("X-Echo")!] ?? "").split(separator: ",") {
                if let field = HTTPField.Name(String(name)) {
                    headers[HTTPField.Name("X-Seen-\(name)")!] = request.headers[field] ?? "none"
                }
            }
            return Hummingbird.Response(status: .created, headers: headers, body: .init(byteBuffer: body))
        }
        router.get("zen") { _, _ in "Half measures" }
    }

    @Test(arguments: TransportUnderTest.allCases)
    func aGETReturnsTheStatusBodyFinalURLAndTheRequestSent(_ transport: TransportUnderTest) async throws {
        try await TestServer.with(addEcho) { server in
            let response = try await transport.provider().request(DynamicTarget(baseURL: server.baseURL, path: "/zen"))
            #expect(response.statusCode == 200)
            #expect(try response.mapString() == "Half measures")
            #expect(response.response?.url?.path == "/zen")
            #expect(response.request?.url?.path == "/zen")
        }
    }

    @Test(arguments: TransportUnderTest.allCases)
    func aJSONPOSTSendsItsBodyAndHeadersAndTheSessionsDefaultsOnlyWhereUnset(
        _ transport: TransportUnderTest
    ) async throws {
        try await TestServer.with(addEcho) { server in
            let configuration = Session.Configuration(
                defaultHeaders: ["X-Default": "session", "X-Token": "session-token"],
                cookieStorage: nil
            )
            let target = DynamicTarget(
                baseURL: server.baseURL,
                path: "/echo",
                method: .post,
                makeTask: { .requestParameters(parameters: ["name": "moya"], encoding: JSONEncoding.default) },
                headers: ["X-Token": "request-token", "X-Echo": "X-Token,X-Default"]
            )
            let response = try await transport.provider(configuration).request(target)
            #expect(response.statusCode == 201)
            #expect(try response.mapJSON() as? [String: String] == ["name": "moya"])
            #expect(response.response?.value(forHTTPHeaderField: "Content-Type") == "application/json")
            #expect(response.response?.value(forHTTPHeaderField: "X-Seen-X-Token") == "request-token")
            #expect(response.response?.value(forHTTPHeaderField: "X-Seen-X-Default") == "session")
        }
    }

    @Test(arguments: TransportUnderTest.allCases)
    func aFileUploadSendsTheWholeFileAndReportsUploadProgress(_ transport: TransportUnderTest) async throws {
        let file = try TransportUnderTest.makeDirectory().appendingPathComponent("upload.bin")
        let content = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0) })
        try content.write(to: file)
        try await TestServer.with(addEcho) { server in
            let target = DynamicTarget(
                baseURL: server.baseURL,
                path: "/echo",
                method: .post,
                makeTask: { .uploadFile(file) }
            )
            let progress = Synchronized<[Double]>([])
            var received: Moya.Response?
            for try await event in transport.provider().requestWithProgress(target) {
                if let response = event.response {
                    received = response
                } else {
                    progress.update { $0.append(event.progress) }
                }
            }
            #expect(received?.data == content)
            #expect(progress.update { $0.last } == 1)
        }
    }

    @Test(arguments: TransportUnderTest.allCases)
    func multipartSendsEveryKindOfPartWithTheCustomBoundary(_ transport: TransportUnderTest) async throws {
        let file = try TransportUnderTest.makeDirectory().appendingPathComponent("notes.txt")
        try Data("file contents".utf8).write(to: file)
        let streamData = Data("streamed bytes".utf8)
        try await TestServer.with(addEcho) { server in
            let target = DynamicTarget(
                baseURL: server.baseURL,
                path: "/echo",
                method: .post,
                makeTask: {
                    .uploadMultipart([
                        MultipartFormData(provider: .data(Data("moya".utf8)), name: "name"),
                        MultipartFormData(provider: .file(file), name: "attachment", mimeType: "text/plain"),
                        MultipartFormData(
                            provider: .stream(InputStream(data: streamData), UInt64(streamData.count)),
                            name: "stream",
                            fileName: "s.bin"
                        ),
                    ])
                },
                headers: ["Content-Type": "multipart/form-data; boundary=test-boundary-42", "X-Echo": "Content-Length"]
            )
            let response = try await transport.provider().request(target)
            let body = try response.mapString()
            #expect(
                response.response?.value(forHTTPHeaderField: "Content-Type")
                    == "multipart/form-data; boundary=test-boundary-42"
            )
            #expect(response.response?.value(forHTTPHeaderField: "X-Seen-Content-Length") == "\(response.data.count)")
            #expect(
                body.hasPrefix("--test-boundary-42\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\nmoya\r\n")
            )
            #expect(
                body.contains(
                    "Content-Disposition: form-data; name=\"attachment\"; filename=\"notes.txt\"\r\n"
                        + "Content-Type: text/plain\r\n\r\nfile contents\r\n"
                )
            )
            #expect(
                body.contains(
                    "name=\"stream\"; filename=\"s.bin\"\r\nContent-Type: application/octet-stream\r\n\r\n"
                        + "streamed bytes\r\n"
                )
            )
            #expect(body.hasSuffix("--test-boundary-42--\r\n"))
        }
    }
}
