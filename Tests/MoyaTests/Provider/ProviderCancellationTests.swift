import Foundation
import Moya
import Testing

@Suite("Provider cancellation")
struct ProviderCancellationTests {
    let queue = DispatchQueue(label: "provider-cancellation-tests")

    private func expectCancelled(
        _ result: Result<Response, MoyaError>,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard case .failure(.underlying(let error, nil)) = result else {
            Issue.record("expected the cancelled error, got \(result)", sourceLocation: sourceLocation)
            return
        }
        let nsError = error as NSError
        #expect(nsError.domain == NSURLErrorDomain, sourceLocation: sourceLocation)
        #expect(nsError.code == NSURLErrorCancelled, sourceLocation: sourceLocation)
    }

    @Test func cancelBeforeStubAnswersCompletesWithCancelledErrorAndPluginsHearIt() async {
        let log = EventLog()
        let provider = MoyaProvider<PipelineTarget>(
            stubClosure: MoyaProvider.delayedStub(30),
            plugins: [RecordingPlugin(name: "plugin", log: log)]
        )
        let result: Result<Response, MoyaError> = await withCheckedContinuation { continuation in
            let token = provider.request(.zen, callbackQueue: queue) { continuation.resume(returning: $0) }
            token.cancel()
            #expect(token.isCancelled)
        }
        expectCancelled(result)
        #expect(log.all.contains("plugin.didReceive"))
    }

    @Test func cancelWhileRequestClosureIsPendingCompletesAtOnce() async {
        let provider = MoyaProvider<PipelineTarget>(
            requestClosure: { _, _ in
                // Never answers.
            },
            stubClosure: MoyaProvider.immediatelyStub
        )
        let result: Result<Response, MoyaError> = await withCheckedContinuation { continuation in
            let token = provider.request(.zen, callbackQueue: queue) { continuation.resume(returning: $0) }
            token.cancel()
        }
        expectCancelled(result)
    }

    @Test func cancellingTwiceCompletesOnce() async {
        let completions = Counter()
        let provider = MoyaProvider<PipelineTarget>(stubClosure: MoyaProvider.delayedStub(30))
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let token = provider.request(.zen, callbackQueue: queue) { _ in
                completions.increment()
                continuation.resume()
            }
            token.cancel()
            token.cancel()
        }
        await withCheckedContinuation { continuation in queue.async { continuation.resume() } }
        #expect(completions.count == 1)
    }

    @Test func cancelRacingCompletionCallsCompletionExactlyOnce() async {
        let provider = MoyaProvider<PipelineTarget>(stubClosure: MoyaProvider.delayedStub(0))
        let completions = Counter()
        let rounds = 200
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<rounds {
                group.addTask {
                    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                        let token = provider.request(.zen, callbackQueue: queue) { _ in
                            completions.increment()
                            continuation.resume()
                        }
                        DispatchQueue.global().async { token.cancel() }
                    }
                }
            }
        }
        await withCheckedContinuation { continuation in queue.async { continuation.resume() } }
        #expect(completions.count == rounds)
    }

    @Test func cancelAfterCompletionChangesNothing() async throws {
        let provider = MoyaProvider<PipelineTarget>(stubClosure: MoyaProvider.immediatelyStub)
        let box = TokenBox()
        let result: Result<Response, MoyaError> = await withCheckedContinuation { continuation in
            box.token = provider.request(.zen, callbackQueue: queue) { continuation.resume(returning: $0) }
        }
        box.token?.cancel()
        #expect(try result.get().statusCode == 200)
    }
}

/// Holds a token across the continuation boundary.
final class TokenBox: @unchecked Sendable {
    // Written before the awaited completion and read after it: the continuation orders the two.
    var token: Cancellable?
}
