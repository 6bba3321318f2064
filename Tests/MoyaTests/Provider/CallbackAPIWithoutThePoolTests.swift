import Foundation
import NIOConcurrencyHelpers
import XCTest

@testable import Moya

/// The callback API never depends on Swift's cooperative pool: code on the way to async/await
/// that blocks a pool thread while it waits for a Moya callback must not deadlock, even when
/// every pool thread waits so and the request has asynchronous steps (an asynchronous plugin's
/// `prepare`, an interceptor's `adapt` and `retry`, the wait before a retry).
///
/// An XCTest case, not a Swift Testing one: it blocks every thread of the pool on purpose, and
/// `swift test` runs XCTest's cases on their own, one at a time, so that no test running beside
/// it in Swift Testing's parallel run is starved meanwhile.
final class CallbackAPIWithoutThePoolTests: XCTestCase {
    private let target = DynamicTarget(baseURL: URL(fileURLWithPath: "/"), path: "/zen")

    func testCallbacksWithAsynchronousStepsArriveWhileEveryPoolThreadBlocksWaitingForOne() async {
        // As many waiters as the pool has threads (one per processor); a barrier makes them all
        // hold their thread before any request starts, so no pool thread is left to run a step.
        let width = ProcessInfo.processInfo.activeProcessorCount
        let adapter = CountingAdapter()
        let provider = MoyaProvider<DynamicTarget>(
            stubClosure: MoyaProvider.immediatelyStub,
            plugins: [AsyncHeaderPlugin()],
            interceptor: Interceptor(
                adapters: [adapter],
                retriers: [ScriptedRetrier(decisions: [.retryWithDelay(0.001)])]
            )
        )
        let callbacks = DispatchQueue(label: "callbacks", attributes: .concurrent)
        let barrier = Barrier(parties: width)
        let target = self.target

        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<width {
                group.addTask {
                    guard barrier.arriveAndWait(timeout: 20) else { return false }
                    let answered = DispatchSemaphore(value: 0)
                    provider.request(target, callbackQueue: callbacks) { _ in answered.signal() }
                    // Bounded, so that a regression fails the test instead of hanging the run.
                    return answered.wait(timeout: .now() + 20) == .success
                }
            }
            var outcomes: [Bool] = []
            for await outcome in group {
                outcomes.append(outcome)
            }
            return outcomes
        }

        XCTAssertEqual(outcomes, Array(repeating: true, count: width))
        // Each request was adapted twice: the first attempt and its retry.
        XCTAssertEqual(adapter.adaptations.withLockedValue { $0 }, 2 * width)
    }
}

/// Adds a header asynchronously, after a suspension.
private struct AsyncHeaderPlugin: AsyncPluginType {
    func prepare(_ request: URLRequest, target: TargetType) async throws -> URLRequest {
        await _Concurrency.Task.yield()
        var request = request
        request.setValue("1", forHTTPHeaderField: "X-Prepared")
        return request
    }
}

/// Counts the attempts it adapts, after a suspension.
private final class CountingAdapter: RequestAdapter {
    let adaptations = NIOLockedValueBox(0)

    func adapt(_ request: URLRequest, for target: TargetType) async throws -> URLRequest {
        await _Concurrency.Task.yield()
        adaptations.withLockedValue { $0 += 1 }
        return request
    }
}

/// Holds each caller until `parties` callers arrived, or `timeout` seconds passed.
private final class Barrier: Sendable {
    private let parties: Int
    private let arrived = NIOLockedValueBox(0)
    private let allArrived = DispatchSemaphore(value: 0)

    init(parties: Int) {
        self.parties = parties
    }

    /// Whether every party arrived in time.
    func arriveAndWait(timeout: TimeInterval) -> Bool {
        let count = arrived.withLockedValue { count in
            count += 1
            return count
        }
        if count == parties {
            for _ in 1..<parties {
                allArrived.signal()
            }
            return true
        }
        return allArrived.wait(timeout: .now() + timeout) == .success
    }
}
