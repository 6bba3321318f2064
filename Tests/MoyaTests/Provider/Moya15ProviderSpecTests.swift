import Foundation
import Testing

@testable import Moya

/// What Moya 15's `MoyaProviderSpec` reads off a provider, beyond its behaviour.
@Suite("Moya 15 provider facts its specs read")
struct Moya15ProviderSpecTests {
    @Test func theDefaultSessionDoesNotStartRequestsImmediately() {
        let provider = MoyaProvider<PipelineTarget>()
        #expect(provider.session.startRequestsImmediately == false)
    }

    @Test func aJoinedInflightRequestHandsOutACancellableWrapper() async {
        let queue = DispatchQueue(label: "moya15-provider-spec")
        let gate = DispatchSemaphore(value: 0)
        let provider = gatedTrackingProvider(PipelineTarget.self, answers: Counter(), gate: gate)
        let completions = Counter()
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let first = provider.request(.zen, callbackQueue: queue) { _ in
                if completions.increment() == 2 { done.resume() }
            }
            let joined = provider.request(.zen, callbackQueue: queue) { _ in
                if completions.increment() == 2 { done.resume() }
            }
            // Moya's spec casts with `as!`; a failed cast there is a crash, here a failure.
            #expect(first is CancellableWrapper)
            #expect(joined is CancellableWrapper)
            #expect(provider.inflightRequests.values.first?.count == 2)
            gate.signal()
        }
    }
}
