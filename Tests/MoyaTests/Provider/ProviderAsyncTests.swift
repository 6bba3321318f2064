import Foundation
import Moya
import Testing

@Suite("Provider async/await")
struct ProviderAsyncTests {
    @Test func asyncRequestReturnsTheResponse() async throws {
        let provider = MoyaProvider<PipelineTarget>(stubClosure: MoyaProvider.immediatelyStub)
        let response = try await provider.request(.user("octocat"))
        #expect(response.statusCode == 200)
        #expect(String(decoding: response.data, as: UTF8.self).contains("octocat"))
    }

    @Test func asyncRequestThrowsMoyaError() async {
        let provider = MoyaProvider<PipelineTarget>(
            endpointClosure: { target in
                MoyaProvider.defaultEndpointMapping(for: target).replacingSample(statusCode: 404)
            },
            stubClosure: MoyaProvider.immediatelyStub
        )
        await #expect(throws: MoyaError.self) {
            try await provider.request(.validated(statusCode: 404))
        }
    }

    @Test func taskCancellationCancelsTheRequest() async {
        let provider = MoyaProvider<PipelineTarget>(stubClosure: MoyaProvider.delayedStub(30))
        let started = AsyncStream<Void>.makeStream()
        let task = _Concurrency.Task {
            started.continuation.yield()
            return try await provider.request(.zen)
        }
        for await _ in started.stream { break }
        task.cancel()
        let result = await task.result
        guard case .failure(let error as MoyaError) = result else {
            Issue.record("expected a MoyaError, got \(result)")
            return
        }
        #expect(error.isCancellation)
    }

    @Test func taskCancellationWhileRequestClosureIsPendingThrowsCancelled() async {
        let provider = MoyaProvider<PipelineTarget>(
            requestClosure: { _, _ in
                // Never answers.
            },
            stubClosure: MoyaProvider.immediatelyStub
        )
        let task = _Concurrency.Task { try await provider.request(.zen) }
        task.cancel()
        let result = await task.result
        guard case .failure(let error as MoyaError) = result else {
            Issue.record("expected a MoyaError, got \(result)")
            return
        }
        #expect(error.isCancellation)
    }
}
