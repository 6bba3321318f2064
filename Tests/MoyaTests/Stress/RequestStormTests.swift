import Foundation
import Hummingbird
import LoopbackServer
import Moya
import NIOCore
import Testing

@Suite("Storms: thousands of requests, cancelled at random points")
struct RequestStormTests {
    let queue = DispatchQueue(label: "request-storm-tests", attributes: .concurrent)

    @Test(.timeLimit(.minutes(5)))
    func tenThousandRequestsWithRandomCancelsCompleteExactlyOnceAndTheSessionShutsDownCleanly() async throws {
        let total = 10_000
        let window = 64
        let completions = Synchronized([Int](repeating: 0, count: total))
        let outcomes = Synchronized((succeeded: 0, cancelled: 0, other: 0))

        try await TestServer.with({ router in
            router.get("item/:n") { request, context -> String in
                context.parameters.get("n") ?? "?"
            }
        }) { server in
            let session = Session()
            let provider = MoyaProvider<DynamicTarget>(session: session)
            var generator = SystemRandomNumberGenerator()

            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<total {
                    if index >= window {
                        try await group.next()
                    }
                    let plan = CancelPlan.random(using: &generator)
                    group.addTask {
                        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                            let target = DynamicTarget(baseURL: server.baseURL, path: "/item/\(index)")
                            let token = provider.request(target, callbackQueue: queue) { result in
                                let count = completions.update { counts -> Int in
                                    counts[index] += 1
                                    return counts[index]
                                }
                                outcomes.update { outcomes in
                                    switch result {
                                    case .success(let response)
                                    where String(decoding: response.data, as: UTF8.self) == "\(index)":
                                        outcomes.succeeded += 1
                                    case .failure(let error) where error.isCancellation:
                                        outcomes.cancelled += 1
                                    default:
                                        outcomes.other += 1
                                    }
                                }
                                if count == 1 {
                                    continuation.resume()
                                }
                            }
                            plan.apply(to: token)
                        }
                    }
                }
                try await group.waitForAll()
            }
            // A late second completion would run on the queue: let it drain.
            queue.sync(flags: .barrier) {}

            // Every request gave its connection back: shutting down finds nothing in use.
            try await session.shutdown()
        }

        let counts = completions.update { $0 }
        #expect(
            counts.allSatisfy { $0 == 1 },
            "requests completed other than once: \(counts.enumerated().filter { $0.element != 1 }.prefix(5))"
        )
        let final = outcomes.update { $0 }
        #expect(final.other == 0)
        #expect(final.succeeded + final.cancelled == total)
        #expect(final.succeeded > 0)
        #expect(final.cancelled > 0)
    }

    @Test(.timeLimit(.minutes(2)))
    func aThousandIdenticalRequestsShareOneCallThroughTrackInflights() async throws {
        let callers = 1_000
        let hits = Counter()
        let (release, releaseContinuation) = AsyncStream<Void>.makeStream()
        let completions = Counter()

        try await TestServer.with({ router in
            router.get("shared") { _, _ -> String in
                hits.increment()
                // Answer only once every caller has joined.
                for await _ in release { break }
                return "shared answer"
            }
        }) { server in
            let provider = MoyaProvider<DynamicTarget>(trackInflights: true)
            let target = DynamicTarget(baseURL: server.baseURL, path: "/shared")
            let bodies = Synchronized<[String]>([])
            await withCheckedContinuation { (allDone: CheckedContinuation<Void, Never>) in
                for _ in 0..<callers {
                    provider.request(target, callbackQueue: queue) { result in
                        bodies.update { $0.append((try? result.get().mapString()) ?? "failed") }
                        if completions.increment() == callers {
                            allDone.resume()
                        }
                    }
                }
                #expect(provider.inflightRequests.count == 1)
                #expect(provider.inflightRequests.values.first?.count == callers)
                releaseContinuation.yield()
            }
            #expect(bodies.update { $0 } == Array(repeating: "shared answer", count: callers))
            // The entry leaves once the last completion has returned, as in Moya: let the
            // (concurrent) callback queue finish every completion first.
            await withCheckedContinuation { done in queue.async(flags: .barrier) { done.resume() } }
            #expect(provider.inflightRequests.isEmpty)
        }
        #expect(hits.count == 1)
        #expect(completions.count == callers)
    }
}

/// When a storm's request is cancelled, if at all.
private enum CancelPlan {
    case never
    case immediately
    case soon(microseconds: Int)

    static func random(using generator: inout SystemRandomNumberGenerator) -> CancelPlan {
        switch Int.random(in: 0..<4, using: &generator) {
        case 0, 1: return .never
        case 2: return .immediately
        default: return .soon(microseconds: Int.random(in: 0...2_000, using: &generator))
        }
    }

    func apply(to token: Cancellable) {
        switch self {
        case .never:
            return
        case .immediately:
            token.cancel()
        case .soon(let microseconds):
            // Lands anywhere in the request's life: before the connection, mid-response, after.
            DispatchQueue.global().asyncAfter(deadline: .now() + .microseconds(microseconds)) {
                token.cancel()
            }
        }
    }
}
