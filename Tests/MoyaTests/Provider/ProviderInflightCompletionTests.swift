import Foundation
import Moya
import Testing

/// Moya removes an in-flight entry right after calling the waiting completions, so a completion
/// still finds its endpoint in `inflightRequests`; tests written for Moya rely on that.
@Suite("Provider in-flight entries while completions run")
struct ProviderInflightCompletionTests {
    let queue = DispatchQueue(label: "provider-inflight-completion-tests")

    /// Returns once everything already queued on `queue` has run, the end of the completions'
    /// block included.
    private func drained(_ queue: DispatchQueue) async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            queue.async { done.resume() }
        }
    }

    @Test func everyCompletionFindsItsEndpointStillInFlightAndTheEntryLeavesAfterTheLast() async {
        let gate = DispatchSemaphore(value: 0)
        let provider = gatedTrackingProvider(PipelineTarget.self, answers: Counter(), gate: gate)
        let endpoint = provider.endpoint(.zen)
        let seen = Synchronized<[Int?]>([])

        await withCheckedContinuation { (allDone: CheckedContinuation<Void, Never>) in
            for _ in 0..<3 {
                provider.request(.zen, callbackQueue: queue) { _ in
                    let waiting = provider.inflightRequests[endpoint]?.count
                    if seen.update({
                        $0.append(waiting)
                        return $0.count
                    }) == 3 {
                        allDone.resume()
                    }
                }
            }
            gate.signal()
        }
        // Each completion is listed until it returns: three, then two, then one.
        #expect(seen.update { $0 } == [3, 2, 1])
        await drained(queue)
        #expect(provider.inflightRequests.isEmpty)
    }

    @Test func theEntryStaysUntilCompletionsOnOtherQueuesHaveReturnedToo() async {
        let gate = DispatchSemaphore(value: 0)
        let provider = gatedTrackingProvider(PipelineTarget.self, answers: Counter(), gate: gate)
        let endpoint = provider.endpoint(.zen)
        let otherQueue = DispatchQueue(label: "provider-inflight-completion-tests.other")
        let firstReturned = DispatchSemaphore(value: 0)
        let listedInSecond = Synchronized<Bool?>(nil)

        await withCheckedContinuation { (bothDone: CheckedContinuation<Void, Never>) in
            let finished = Counter()
            provider.request(.zen, callbackQueue: queue) { _ in
                firstReturned.signal()
                if finished.increment() == 2 { bothDone.resume() }
            }
            provider.request(.zen, callbackQueue: otherQueue) { _ in
                // The first caller is done; this one is not, so the request is still listed.
                firstReturned.wait()
                listedInSecond.update { $0 = provider.inflightRequests[endpoint] != nil }
                if finished.increment() == 2 { bothDone.resume() }
            }
            gate.signal()
        }
        #expect(listedInSecond.update { $0 } == true)
        await drained(queue)
        await drained(otherQueue)
        #expect(provider.inflightRequests.isEmpty)
    }

    @Test func aCallerArrivingWhileCompletionsRunGetsARequestOfItsOwn() async throws {
        let answers = Counter()
        let gate = DispatchSemaphore(value: 1)
        let provider = gatedTrackingProvider(PipelineTarget.self, answers: answers, gate: gate)

        let late: Result<Response, MoyaError> = await withCheckedContinuation { continuation in
            provider.request(.zen, callbackQueue: queue) { _ in
                // The entry is still listed, but its request is over: this call must not join it.
                provider.request(.zen, callbackQueue: queue) { result in
                    continuation.resume(returning: result)
                }
            }
        }
        #expect(try late.get().statusCode == 200)
        #expect(answers.count == 2)
        await drained(queue)
        #expect(provider.inflightRequests.isEmpty)
    }

    @Test func callersWithTheSameJSONParametersShareOneRequestWhateverTheKeyOrder() async {
        let answers = Counter()
        let gate = DispatchSemaphore(value: 0)
        let provider = gatedTrackingProvider(DynamicTarget.self, answers: answers, gate: gate)
        // Enough keys that Linux's dictionaries come out in a different order from one
        // encoding to the next.
        let parameters = Dictionary(uniqueKeysWithValues: (0..<32).map { ("key\($0)", $0) })
        let target = DynamicTarget(
            baseURL: URL(fileURLWithPath: "/"),
            path: "/search",
            method: .post,
            makeTask: { .requestParameters(parameters: parameters, encoding: JSONEncoding.default) }
        )

        await withCheckedContinuation { (allDone: CheckedContinuation<Void, Never>) in
            let finished = Counter()
            for _ in 0..<4 {
                provider.request(target, callbackQueue: queue) { _ in
                    if finished.increment() == 4 { allDone.resume() }
                }
            }
            #expect(provider.inflightRequests.count == 1)
            #expect(provider.inflightRequests.values.first?.count == 4)
            gate.signal()
        }
        #expect(answers.count == 1)
    }
}
