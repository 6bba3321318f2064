import Benchmark
import Foundation
import NIOConcurrencyHelpers

/// Registers `<name> · Moya`, `<name> · AHC raw` and `<name> · AHC+Data` on callback APIs, each
/// doing `requests` requests per iteration as `concurrency` chains: each completion starts the
/// chain's next request, until every chain has done its share.
func callbackTrio(
    _ name: String,
    _ configuration: Benchmark.Configuration,
    requests: Int,
    concurrency: Int = 1,
    moya: @escaping @Sendable (Network, _ done: @escaping @Sendable (Error?) -> Void) -> Void,
    baseline: @escaping @Sendable (Baseline, DispatchQueue, _ done: @escaping @Sendable (Error?) -> Void) -> Void
) {
    typealias Start = @Sendable (Network, _ done: @escaping @Sendable (Error?) -> Void) -> Void
    let variants: [(Contender, Start)] = [
        (.moya, moya),
        (.moyaURLSession, moya),
        (.ahcRaw, { network, done in baseline(network.baseline(.raw), network.callbackQueue, done) }),
        (.ahcData, { network, done in baseline(network.baseline(.data), network.callbackQueue, done) }),
    ]
    for (contender, start) in variants {
        Benchmark("\(name) · \(contender.rawValue)", configuration: configuration) { benchmark, network in
            benchmark.measurement(requestsMetric, requests)
            try await CallbackChains.run(chains: concurrency, each: requests / concurrency) { done in
                start(network, done)
            }
        } setup: {
            try await Network.start(contender)
        }
    }
}

/// Runs chains of callback-API operations and waits for the last one.
final class CallbackChains: Sendable {
    private struct State {
        var running: Int
        var error: Error?
        var continuation: CheckedContinuation<Void, Error>?
    }

    private let state: NIOLockedValueBox<State>
    private let start: @Sendable (_ done: @escaping @Sendable (Error?) -> Void) -> Void

    private init(chains: Int, start: @escaping @Sendable (_ done: @escaping @Sendable (Error?) -> Void) -> Void) {
        state = NIOLockedValueBox(State(running: chains))
        self.start = start
    }

    /// Runs `chains` chains of `each` operations; throws the first error any of them met.
    static func run(
        chains: Int,
        each: Int,
        start: @escaping @Sendable (_ done: @escaping @Sendable (Error?) -> Void) -> Void
    ) async throws {
        let runner = CallbackChains(chains: chains, start: start)
        try await withCheckedThrowingContinuation { continuation in
            runner.state.withLockedValue { $0.continuation = continuation }
            for _ in 0..<chains {
                runner.next(remaining: each)
            }
        }
    }

    /// Starts the chain's next operation, or ends the chain. Completions run asynchronously
    /// (on a queue), so the chain does not grow the stack.
    private func next(remaining: Int) {
        guard remaining > 0 else {
            finish(nil)
            return
        }
        start { error in
            if let error {
                self.finish(error)
            } else {
                self.next(remaining: remaining - 1)
            }
        }
    }

    private func finish(_ error: Error?) {
        let (continuation, result): (CheckedContinuation<Void, Error>?, Error?) = state.withLockedValue { state in
            state.running -= 1
            if state.error == nil, let error {
                state.error = error
            }
            guard state.running == 0, let continuation = state.continuation else { return (nil, nil) }
            state.continuation = nil
            return (continuation, state.error)
        }
        if let result {
            continuation?.resume(throwing: result)
        } else {
            continuation?.resume()
        }
    }
}

extension Result {
    /// The error of a failure, `nil` for a success.
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
