import Foundation
import HTTPTypes
import Hummingbird
import LoopbackServer
import Moya
import NIOCore
import Testing

/// A multipart `InputStream` can be read once: a retry must not send what is left of it.
@Suite("Retrying multipart uploads with stream parts", .timeLimit(.minutes(2)))
struct StreamPartRetryTests {
    /// Retries a `503` once.
    struct RetryOnce: RequestInterceptor {
        func retry(
            _ request: URLRequest,
            for target: TargetType,
            attempt: Int,
            dueTo result: Result<Moya.Response, MoyaError>
        ) async -> RetryResult {
            guard attempt == 1, case .success(let response) = result, response.statusCode == 503 else {
                return .doNotRetry
            }
            return .retry
        }
    }

    /// Answers `503` to the first upload, then echoes the body's size; counts every upload.
    private func addFlakyUpload(_ router: Router<BasicRequestContext>, uploads: Counter) {
        router.post("upload") { request, _ -> Response in
            let body = try await request.body.collect(upTo: 1 << 20)
            guard uploads.increment() > 1 else {
                return Response(status: .serviceUnavailable)
            }
            return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: "\(body.readableBytes)")))
        }
    }

    @Test func aRetryOfAStreamPartFailsBeforeSendingWithAnErrorThatSaysWhy() async throws {
        let uploads = Counter()
        try await TestServer.with({ addFlakyUpload($0, uploads: uploads) }) { server in
            let provider = MoyaProvider<DynamicTarget>(interceptor: RetryOnce())
            let target = DynamicTarget(baseURL: server.baseURL, path: "/upload", method: .post) {
                let data = Data("streamed".utf8)
                return .uploadMultipart([
                    MultipartFormData(provider: .stream(InputStream(data: data), UInt64(data.count)), name: "log")
                ])
            }
            // The target builds a fresh stream for each call to `task`, as apps do; the retry
            // reuses the endpoint's task, whose stream the first attempt read.
            do {
                _ = try await provider.request(target)
                Issue.record("a retried stream part must fail")
            } catch {
                #expect(error.localizedDescription.contains("already read"), "\(error)")
            }
            #expect(uploads.count == 1)
        }
    }

    @Test func aRetryOfDataAndFilePartsSendsThemAgain() async throws {
        let uploads = Counter()
        try await TestServer.with({ addFlakyUpload($0, uploads: uploads) }) { server in
            let provider = MoyaProvider<DynamicTarget>(interceptor: RetryOnce())
            let target = DynamicTarget(baseURL: server.baseURL, path: "/upload", method: .post) {
                .uploadMultipart([MultipartFormData(provider: .data(Data("in memory".utf8)), name: "note")])
            }
            let response = try await provider.request(target)
            #expect(response.statusCode == 200)
            #expect(uploads.count == 2)
        }
    }
}
