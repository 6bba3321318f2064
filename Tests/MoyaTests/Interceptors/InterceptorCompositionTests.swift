import Foundation
import Moya
import Testing

@Suite("Interceptors on stubs: adapters, retriers and their order")
struct InterceptorCompositionTests {
    /// Appends its name to the `X-Adapted` header.
    private struct NamedAdapter: RequestInterceptor {
        let name: String

        func adapt(_ request: URLRequest, for target: TargetType) async throws -> URLRequest {
            var request = request
            let previous = request.value(forHTTPHeaderField: "X-Adapted").map { $0 + "," } ?? ""
            request.setValue(previous + name, forHTTPHeaderField: "X-Adapted")
            return request
        }
    }

    /// Retries every outcome until the limit, counting the questions.
    private struct CountingRetrier: RequestInterceptor {
        let limit: Int
        let asked: Counter

        func retry(
            _ request: URLRequest,
            for target: TargetType,
            attempt: Int,
            dueTo result: Result<Moya.Response, MoyaError>
        ) async -> RetryResult {
            asked.increment()
            return attempt <= limit ? .retry : .doNotRetry
        }
    }

    private struct FailingAdapter: RequestInterceptor {
        func adapt(_ request: URLRequest, for target: TargetType) async throws -> URLRequest {
            throw MoyaError.requestMapping("no signing key")
        }
    }

    @Test func sessionAdaptsBeforeTheProvider() async throws {
        let session = Session(interceptor: NamedAdapter(name: "session"))
        let provider = MoyaProvider<PipelineTarget>(
            stubClosure: MoyaProvider.immediatelyStub,
            session: session,
            interceptor: NamedAdapter(name: "provider")
        )
        let response = try await provider.request(.zen)
        #expect(response.request?.value(forHTTPHeaderField: "X-Adapted") == "session,provider")
    }

    @Test func everyAttemptIsAdaptedAndStubsAreAskedAgain() async throws {
        let answers = Counter()
        let asked = Counter()
        let provider = MoyaProvider<PipelineTarget>(
            endpointClosure: { target in
                Endpoint(
                    url: URL(target: target).absoluteString,
                    sampleResponseClosure: {
                        answers.increment()
                        return .networkResponse(answers.count < 3 ? 503 : 200, Data())
                    },
                    method: target.method,
                    task: target.task,
                    httpHeaderFields: target.headers
                )
            },
            stubClosure: MoyaProvider.immediatelyStub,
            interceptor: Interceptor(interceptors: [NamedAdapter(name: "a"), CountingRetrier(limit: 2, asked: asked)])
        )
        let response = try await provider.request(.zen)
        #expect(response.statusCode == 200)
        #expect(answers.count == 3)
        #expect(asked.count == 3)
        // Each attempt starts from the prepared request, not from the previous attempt's.
        #expect(response.request?.value(forHTTPHeaderField: "X-Adapted") == "a")
    }

    @Test func pluginsHearOneRequestWhateverTheAttempts() async throws {
        let log = EventLog()
        let provider = MoyaProvider<PipelineTarget>(
            stubClosure: MoyaProvider.immediatelyStub,
            plugins: [RecordingPlugin(name: "p", log: log)],
            interceptor: CountingRetrier(limit: 3, asked: Counter())
        )
        _ = try await provider.request(.zen)
        #expect(log.all == ["p.prepare", "p.willSend", "p.didReceive", "p.process"])
    }

    @Test func aThrowingAdapterFailsTheRequestWithItsError() async {
        let provider = MoyaProvider<PipelineTarget>(
            stubClosure: MoyaProvider.immediatelyStub,
            interceptor: FailingAdapter()
        )
        do {
            _ = try await provider.request(.zen)
            Issue.record("the adapter's error must fail the request")
        } catch {
            guard case .requestMapping(let reason) = error else {
                Issue.record("expected the adapter's MoyaError, got \(error)")
                return
            }
            #expect(reason == "no signing key")
        }
    }

    /// Announces each decision, then asks for a ten-minute wait.
    private struct SlowRetrier: RequestInterceptor {
        let decided: AsyncStream<Void>.Continuation

        func retry(
            _ request: URLRequest,
            for target: TargetType,
            attempt: Int,
            dueTo result: Result<Moya.Response, MoyaError>
        ) async -> RetryResult {
            decided.yield()
            return .retryWithDelay(600)
        }
    }

    @Test func cancellingDuringTheWaitBetweenAttemptsCompletesCancelledPromptly() async {
        let (decided, decidedContinuation) = AsyncStream<Void>.makeStream()
        let provider = MoyaProvider<PipelineTarget>(
            stubClosure: MoyaProvider.immediatelyStub,
            interceptor: SlowRetrier(decided: decidedContinuation)
        )
        let started = ContinuousClock.now
        let task = _Concurrency.Task { try await provider.request(.zen) }
        for await _ in decided { break }
        task.cancel()
        let result = await task.result
        guard case .failure(let error as MoyaError) = result else {
            Issue.record("expected a cancellation, got \(result)")
            return
        }
        #expect(error.isCancellation)
        #expect(ContinuousClock.now - started < .seconds(60))
    }
}
