import Foundation
import Hummingbird
import LoopbackServer
import Moya
import NIOCore
import Testing

@Suite("Provider async progress streams and decoding")
struct ProviderAsyncProgressTests {
    private struct User: Decodable, Equatable {
        let login: String
        let id: Int
    }

    @Test func progressStreamOfAStubEndsWithOneCompletedEvent() async throws {
        let provider = MoyaProvider<PipelineTarget>(stubClosure: MoyaProvider.immediatelyStub)
        var events: [ProgressResponse] = []
        for try await event in provider.requestWithProgress(.zen) {
            events.append(event)
        }
        #expect(events.count == 1)
        #expect(events.last?.completed == true)
        #expect(events.last?.response?.statusCode == 200)
    }

    @Test func aStreamFromAProviderNobodyKeepsStillCompletes() async throws {
        var last: ProgressResponse?
        for try await event in MoyaProvider<PipelineTarget>(stubClosure: MoyaProvider.delayedStub(0.01))
            .requestWithProgress(.zen)
        {
            last = event
        }
        #expect(last?.response?.statusCode == 200)
    }

    @Test func progressStreamThrowsTheRequestsMoyaError() async {
        let provider = MoyaProvider<PipelineTarget>(
            endpointClosure: { target in
                MoyaProvider.defaultEndpointMapping(for: target).replacingSample(statusCode: 500)
            },
            stubClosure: MoyaProvider.immediatelyStub
        )
        do {
            for try await _ in provider.requestWithProgress(.validated(statusCode: 500)) {}
            Issue.record("expected the validation error")
        } catch {
            // Moya's shape for a rejected status code: `.underlying(.statusCode(response), response)`.
            guard case .underlying(let inner, let response)? = error as? MoyaError,
                case .statusCode? = inner as? MoyaError
            else {
                Issue.record("expected .underlying(.statusCode), got \(error)")
                return
            }
            #expect(response?.statusCode == 500)
        }
    }

    @Test func progressStreamOfADownloadRisesThenCompletesWithTheResponse() async throws {
        let payload = ByteBuffer(repeating: 9, count: 1 << 20)
        try await TestServer.with({ router in
            router.get("bytes") { _, _ in Response(status: .ok, body: .init(byteBuffer: payload)) }
        }) { server in
            let provider = MoyaProvider<DynamicTarget>()
            var fractions: [Double] = []
            var last: ProgressResponse?
            for try await event in provider.requestWithProgress(DynamicTarget(baseURL: server.baseURL, path: "/bytes"))
            {
                fractions.append(event.progress)
                last = event
            }
            #expect(fractions.count >= 2)
            #expect(fractions == fractions.sorted())
            #expect(last?.completed == true)
            #expect(last?.response?.data.count == payload.readableBytes)
            #expect(last?.progressObject?.completedUnitCount == Int64(payload.readableBytes))
        }
    }

    @Test func leavingTheProgressLoopEarlyCancelsTheRequest() async throws {
        let (results, resultsContinuation) = AsyncStream<Result<Moya.Response, MoyaError>>.makeStream()
        let provider = MoyaProvider<DynamicTarget>(plugins: [ResultPlugin(continuation: resultsContinuation)])
        let (stalled, stalledContinuation) = AsyncStream<Void>.makeStream()
        try await TestServer.with({ router in
            router.get("first-chunk-then-stall") { _, _ -> Response in
                Response(
                    status: .ok,
                    headers: [.contentLength: "1000000"],
                    body: ResponseBody { writer in
                        try await writer.write(ByteBuffer(repeating: 1, count: 1000))
                        // Hold the body open until the client is gone.
                        for await _ in stalled {}
                    }
                )
            }
        }) { server in
            let target = DynamicTarget(baseURL: server.baseURL, path: "/first-chunk-then-stall")
            for try await event in provider.requestWithProgress(target) where !event.completed {
                break
            }
            var iterator = results.makeAsyncIterator()
            let result = await iterator.next()
            stalledContinuation.finish()
            guard case .failure(let error)? = result else {
                Issue.record("expected a cancellation, got \(String(describing: result))")
                return
            }
            #expect(error.isCancellation)
        }
    }

    @Test func cancellingTheConsumingTaskCancelsTheRequest() async {
        let (results, resultsContinuation) = AsyncStream<Result<Moya.Response, MoyaError>>.makeStream()
        let provider = MoyaProvider<PipelineTarget>(
            stubClosure: MoyaProvider.delayedStub(30),
            plugins: [ResultPlugin(continuation: resultsContinuation)]
        )
        let started = AsyncStream<Void>.makeStream()
        let task = _Concurrency.Task {
            let stream = provider.requestWithProgress(.zen)
            started.continuation.yield()
            for try await _ in stream {}
        }
        for await _ in started.stream { break }
        task.cancel()
        // Plugins hear the cancellation long before the 30-second stub would answer.
        var iterator = results.makeAsyncIterator()
        let result = await iterator.next()
        guard case .failure(let error)? = result else {
            Issue.record("expected a cancellation, got \(String(describing: result))")
            return
        }
        #expect(error.isCancellation)
    }

    @Test func decodingRequestReturnsTheDecodedValue() async throws {
        let provider = MoyaProvider<PipelineTarget>(stubClosure: MoyaProvider.immediatelyStub)
        let user = try await provider.request(.user("octocat"), as: User.self)
        #expect(user == User(login: "octocat", id: 100))
        let login = try await provider.request(.user("octocat"), as: String.self, atKeyPath: "login")
        #expect(login == "octocat")
    }

    @Test func decodingRequestThrowsObjectMappingForTheWrongShape() async {
        let provider = MoyaProvider<PipelineTarget>(stubClosure: MoyaProvider.immediatelyStub)
        do {
            _ = try await provider.request(.zen, as: User.self)
            Issue.record("plain text must not decode as a user")
        } catch {
            switch error {
            case .objectMapping, .jsonMapping:
                #expect(error.response?.statusCode == 200)
            default:
                Issue.record("expected a mapping error, got \(error)")
            }
        }
    }
}

/// Hands every result plugins hear to a stream.
private struct ResultPlugin: PluginType {
    let continuation: AsyncStream<Result<Moya.Response, MoyaError>>.Continuation

    func didReceive(_ result: Result<Moya.Response, MoyaError>, target: TargetType) {
        continuation.yield(result)
    }
}
