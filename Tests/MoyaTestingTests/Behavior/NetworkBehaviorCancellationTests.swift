import Foundation
import Moya
import MoyaTesting
import Testing

@Suite("A behaviour's delayed answer can be cancelled")
struct NetworkBehaviorCancellationTests {
    private let queue = DispatchQueue(label: "network-behavior-cancellation-tests")

    @Test func aCancelledDelayedRequestNeverAnswersAndDrawsNoOutcome() async throws {
        // Delays of 0.1 to 0.3 s; the later provider's 0.6 s answer comes after any of them.
        let behavior = NetworkBehavior(delay: 0.2, variance: 0.5, failurePercent: 40, errorPercent: 30, seed: 17)
        let later = MoyaProvider<Greeting>(networkBehavior: NetworkBehavior(delay: 0.6, seed: 1))

        try await confirmation("the cancelled request's stub answers", expectedCount: 0) { stubAnswered in
            let provider = MoyaProvider<Greeting>(
                networkBehavior: behavior,
                endpointClosure: {
                    MoyaProvider.defaultEndpointMapping(for: $0).replacing(sampleResponseClosure: {
                        stubAnswered()
                        return .networkResponse(200, Data())
                    })
                }
            )
            try await confirmation("the completion runs", expectedCount: 1) { completed in
                let result: Result<Response, MoyaError> = await withCheckedContinuation { continuation in
                    let token = provider.request(.hello, callbackQueue: queue) { result in
                        completed()
                        continuation.resume(returning: result)
                    }
                    token.cancel()
                }
                guard case .failure(.underlying(let error, nil)) = result else {
                    Issue.record("expected the cancelled error, got \(result)")
                    return
                }
                #expect((error as NSError).domain == NSURLErrorDomain)
                #expect((error as NSError).code == NSURLErrorCancelled)

                // Had the cancelled stub not been stopped, it would have answered by now.
                _ = try await later.request(.hello)
                await withCheckedContinuation { continuation in queue.async { continuation.resume() } }
            }
        }

        // The cancelled request drew a delay but no outcome: the next answers are the ones a
        // fresh behaviour with the same seed gives first.
        let fresh = NetworkBehavior(failurePercent: 40, errorPercent: 30, seed: 17)
        let continued = MoyaProvider<Greeting>(networkBehavior: behavior)
        let replayed = MoyaProvider<Greeting>(networkBehavior: fresh)
        for _ in 0..<5 {
            let next = await Self.statusOrCode(continued)
            #expect(next == (await Self.statusOrCode(replayed)))
        }
    }

    /// A response's status, or a failure's negative `NSURLErrorDomain` code.
    private static func statusOrCode(_ provider: MoyaProvider<Greeting>) async -> Int {
        do {
            return try await provider.request(.wave).statusCode
        } catch {
            guard case .underlying(let inner, nil) = error else { return 0 }
            return (inner as NSError).code
        }
    }
}
