import Foundation
import Moya

#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif

/// How a recorded publisher ended.
enum Ending {
    case finished
    case failure(MoyaError)

    var error: MoyaError? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

/// A subscriber that records what it receives, asks for the demand it is told to, and lets a
/// test wait for events without sleeping.
///
/// - Note: `@unchecked Sendable` because every stored `var` is read and written under `lock`;
///   the values it records are only read by the test after it has awaited them.
final class Recorder<Input>: Subscriber, @unchecked Sendable {
    typealias Failure = MoyaError

    private let lock = NSLock()
    private let initialDemand: Subscribers.Demand
    private var subscription: (any Subscription)?
    private var recordedValues: [Input] = []
    private var recordedEndings: [Ending] = []
    private var running = false
    private var overlappingCalls = 0
    private var valuesBeforeSubscriptionReturned = 0
    private var subscribed = false
    private var waiters: [(condition: (Recorder) -> Bool, continuation: CheckedContinuation<Void, Never>)] = []

    /// - Parameter initialDemand: What to ask for from inside `receive(subscription:)`.
    init(initialDemand: Subscribers.Demand = .unlimited) {
        self.initialDemand = initialDemand
    }

    func receive(subscription: any Subscription) {
        enter()
        lock.withLock { self.subscription = subscription }
        if initialDemand > .none {
            subscription.request(initialDemand)
        }
        lock.withLock { subscribed = true }
        leave()
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        enter()
        lock.withLock {
            if !subscribed { valuesBeforeSubscriptionReturned += 1 }
            recordedValues.append(input)
        }
        leave()
        return .none
    }

    func receive(completion: Subscribers.Completion<MoyaError>) {
        enter()
        lock.withLock {
            switch completion {
            case .finished: recordedEndings.append(.finished)
            case .failure(let error): recordedEndings.append(.failure(error))
            }
        }
        leave()
    }

    /// Asks the subscription for more values.
    func request(_ demand: Subscribers.Demand) {
        lock.withLock { subscription }?.request(demand)
    }

    /// Cancels the subscription.
    func cancel() {
        lock.withLock { subscription }?.cancel()
    }

    var values: [Input] { lock.withLock { recordedValues } }
    var endings: [Ending] { lock.withLock { recordedEndings } }
    var ending: Ending? { endings.first }

    /// Calls to the subscriber that overlapped another, or values that came before
    /// `receive(subscription:)` returned: both break Combine's contract.
    var contractViolations: Int {
        lock.withLock { overlappingCalls + valuesBeforeSubscriptionReturned }
    }

    /// Waits until the publisher has ended.
    func waitForEnding() async {
        await wait { !$0.recordedEndings.isEmpty }
    }

    /// Waits until `count` values have arrived.
    func waitForValues(_ count: Int) async {
        await wait { $0.recordedValues.count >= count }
    }

    /// Waits until `condition` holds; it is checked under the lock.
    private func wait(until condition: @escaping (Recorder) -> Bool) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let holds = lock.withLock { () -> Bool in
                if condition(self) { return true }
                waiters.append((condition, continuation))
                return false
            }
            if holds { continuation.resume() }
        }
    }

    private func enter() {
        lock.withLock {
            if running { overlappingCalls += 1 }
            running = true
        }
    }

    private func leave() {
        let ready = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
            running = false
            let ready = waiters.filter { $0.condition(self) }.map(\.continuation)
            waiters.removeAll { $0.condition(self) }
            return ready
        }
        for continuation in ready { continuation.resume() }
    }
}

extension AnyPublisher where Failure == MoyaError {
    /// Subscribes a recorder with unlimited demand and waits for the end.
    func record() async -> Recorder<Output> {
        let recorder = Recorder<Output>()
        subscribe(recorder)
        await recorder.waitForEnding()
        return recorder
    }
}
