import Foundation
import Moya
import Testing

@Suite("Provider in-flight tracking")
struct ProviderInflightTests {
    let queue = DispatchQueue(label: "provider-inflight-tests")

    /// Returns once everything already queued on `queue` has run. A completion resumes the
    /// test from inside itself, and the entry leaves only when the completion returns, so the
    /// table is looked at after the completion's block is over.
    private func drained() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            queue.async { done.resume() }
        }
    }

    @Test func identicalEndpointsShareOneRequestAndEveryCallerCompletes() async throws {
        let answers = Counter()
        let gate = DispatchSemaphore(value: 0)
        let provider = gatedTrackingProvider(PipelineTarget.self, answers: answers, gate: gate)
        let completions = Counter()

        await withCheckedContinuation { (allDone: CheckedContinuation<Void, Never>) in
            for _ in 0..<3 {
                provider.request(.zen, callbackQueue: queue) { result in
                    #expect((try? result.get().statusCode) == 200)
                    if completions.increment() == 3 { allDone.resume() }
                }
            }
            #expect(provider.inflightRequests.count == 1)
            #expect(provider.inflightRequests.values.first?.count == 3)
            gate.signal()
        }
        #expect(answers.count == 1)
        await drained()
        #expect(provider.inflightRequests.isEmpty)
    }

    @Test func differentEndpointsDoNotShare() async {
        let answers = Counter()
        let gate = DispatchSemaphore(value: 1)
        let provider = gatedTrackingProvider(PipelineTarget.self, answers: answers, gate: gate)
        _ = await provider.requestAndWait(.user("a"), callbackQueue: queue)
        _ = await provider.requestAndWait(.user("b"), callbackQueue: queue)
        #expect(answers.count == 2)
    }

    @Test func requestsDifferingOnlyInTheirBodyDoNotShare() async {
        // The request closure holds both requests until both are in the table.
        let pending = Synchronized<[@Sendable () -> Void]>([])
        let provider = MoyaProvider<DynamicTarget>(
            requestClosure: { endpoint, done in
                pending.update {
                    $0.append { done(Result { try endpoint.urlRequest() }.mapError { .underlying($0, nil) }) }
                }
            },
            stubClosure: MoyaProvider.immediatelyStub,
            trackInflights: true
        )
        let base = URL(fileURLWithPath: "/")
        let first = DynamicTarget(
            baseURL: base,
            path: "/items",
            method: .post,
            makeTask: { .requestData(Data("a".utf8)) }
        )
        let second = DynamicTarget(
            baseURL: base,
            path: "/items",
            method: .post,
            makeTask: { .requestData(Data("b".utf8)) }
        )
        let completions = Counter()
        await withCheckedContinuation { (allDone: CheckedContinuation<Void, Never>) in
            for target in [first, second] {
                provider.request(target, callbackQueue: queue) { _ in
                    if completions.increment() == 2 { allDone.resume() }
                }
            }
            #expect(provider.inflightRequests.count == 2)
            for release in pending.update({ $0 }) {
                release()
            }
        }
        #expect(pending.update { $0.count } == 2)
    }

    @Test func failingRequestClosureLeavesNoEntryBehind() async {
        let provider = MoyaProvider<PipelineTarget>(
            requestClosure: { _, done in done(.failure(.requestMapping("signing failed"))) },
            stubClosure: MoyaProvider.immediatelyStub,
            trackInflights: true
        )
        _ = await provider.requestAndWait(.zen, callbackQueue: queue)
        await drained()
        #expect(provider.inflightRequests.isEmpty)

        // The endpoint is not wedged: the next call runs its own pipeline and completes.
        let second = await provider.requestAndWait(.zen, callbackQueue: queue)
        guard case .failure(.requestMapping) = second else {
            Issue.record("expected the request closure's error again, got \(second)")
            return
        }
    }

    @Test func earlyCancelOfTheOnlyCallerLeavesNoEntryBehind() async {
        let provider = MoyaProvider<PipelineTarget>(
            requestClosure: { _, _ in
                // Never answers.
            },
            stubClosure: MoyaProvider.immediatelyStub,
            trackInflights: true
        )
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let token = provider.request(.zen, callbackQueue: queue) { _ in continuation.resume() }
            token.cancel()
        }
        await drained()
        #expect(provider.inflightRequests.isEmpty)
    }

    @Test func cancellingOneSharerLeavesTheOthersRunning() async throws {
        let answers = Counter()
        let gate = DispatchSemaphore(value: 0)
        let provider = gatedTrackingProvider(PipelineTarget.self, answers: answers, gate: gate)

        let (cancelled, kept): (Result<Response, MoyaError>, Result<Response, MoyaError>) =
            await withCheckedContinuation { continuation in
                let results = ResultPair()
                let first = provider.request(.zen, callbackQueue: queue) { result in
                    if let pair = results.set(first: result) { continuation.resume(returning: pair) }
                }
                provider.request(.zen, callbackQueue: queue) { result in
                    if let pair = results.set(second: result) { continuation.resume(returning: pair) }
                }
                first.cancel()
                gate.signal()
            }
        guard case .failure(let error) = cancelled else {
            Issue.record("the cancelled caller should fail, got \(cancelled)")
            return
        }
        #expect(error.isCancellation)
        #expect(try kept.get().statusCode == 200)
        #expect(answers.count == 1)
    }
}

/// Collects two results from any thread and hands them over once both are in.
private final class ResultPair: Sendable {
    private let state = Synchronized<(Result<Response, MoyaError>?, Result<Response, MoyaError>?)>((nil, nil))

    func set(first: Result<Response, MoyaError>) -> (Result<Response, MoyaError>, Result<Response, MoyaError>)? {
        state.update { state in
            state.0 = first
            guard let second = state.1 else { return nil }
            return (first, second)
        }
    }

    func set(second: Result<Response, MoyaError>) -> (Result<Response, MoyaError>, Result<Response, MoyaError>)? {
        state.update { state in
            state.1 = second
            guard let first = state.0 else { return nil }
            return (first, second)
        }
    }
}
