import Foundation
import Moya
import NIOConcurrencyHelpers

#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif

/// A publisher that runs a stream (`stream(_:)`'s chunks, `events(_:reconnect:)`'s events) per
/// subscription, from the first demand, and ends it when the subscription is cancelled.
struct StreamPublisher<Output: Sendable>: Publisher {
    typealias Failure = MoyaError

    /// Runs the stream, handing each value to `emit`, which returns `false` once nobody wants
    /// more. Not `@Sendable`, as a target need not be: it runs once, in the subscription's task.
    let run: (_ emit: @escaping @Sendable (Output) async -> Bool) async throws(MoyaError) -> Void

    func receive<Downstream: Subscriber>(subscriber: Downstream)
    where Downstream.Input == Output, Downstream.Failure == MoyaError {
        let subscription = StreamSubscription<Output>(subscriber: AnySubscriber(subscriber), run: run)
        subscriber.receive(subscription: subscription)
        subscription.didHandOver()
    }
}

/// One subscription to a `StreamPublisher`: its stream runs in a task, and waits for demand
/// before each value.
///
/// - Note: `@unchecked Sendable` because the subscriber (Combine's, not `Sendable`) is only
///   called from the stream's task, one value at a time, and released under the lock; and
///   `run` is called once, by that task.
final class StreamSubscription<Output: Sendable>: Subscription, @unchecked Sendable {
    /// Type-erased, so that the stream's closures depend on the value type only.
    typealias Downstream = AnySubscriber<Output, MoyaError>

    private typealias Machine = StateMachine<CheckedContinuation<Bool, Never>>

    private let machine = NIOLockedValueBox(Machine())
    private let subscriber = NIOLockedValueBox<Downstream?>(nil)
    private let task = NIOLockedValueBox<_Concurrency.Task<Void, Never>?>(nil)
    private let run: (_ emit: @escaping @Sendable (Output) async -> Bool) async throws(MoyaError) -> Void

    init(
        subscriber: Downstream,
        run: @escaping (_ emit: @escaping @Sendable (Output) async -> Bool) async throws(MoyaError) -> Void
    ) {
        self.subscriber.withLockedValue { $0 = subscriber }
        self.run = run
    }

    var combineIdentifier: CombineIdentifier { CombineIdentifier(self) }

    func request(_ demand: Subscribers.Demand) {
        perform(machine.withLockedValue { $0.request(demand) })
    }

    /// The subscriber's `receive(subscription:)` returned: the stream may start.
    func didHandOver() {
        perform(machine.withLockedValue { $0.handedOver() })
    }

    private func perform(_ action: Machine.RequestAction) {
        switch action {
        case .none:
            break
        case .start:
            let work = _Concurrency.Task { [self] in
                do throws(MoyaError) {
                    try await run { [self] value in await emit(value) }
                    complete(.finished)
                } catch {
                    complete(.failure(error))
                }
            }
            task.withLockedValue { $0 = work }
        case .resume(let waiter):
            waiter.resume(returning: true)
        }
    }

    func cancel() {
        let (waiter, ended) = machine.withLockedValue { $0.finish() }
        guard ended else { return }
        subscriber.withLockedValue { $0 = nil }
        task.withLockedValue { $0 }?.cancel()
        waiter?.resume(returning: false)
    }

    private func emit(_ value: Output) async -> Bool {
        var action = machine.withLockedValue { $0.emit() }
        if case .wait = action {
            let goOn = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let now = machine.withLockedValue { $0.wait(with: continuation) }
                switch now {
                case .send:
                    continuation.resume(returning: true)
                case .stop:
                    continuation.resume(returning: false)
                case .wait:
                    break
                }
            }
            action = goOn ? .send : .stop
        }
        guard case .send = action, let subscriber = subscriber.withLockedValue({ $0 }) else { return false }
        let more = subscriber.receive(value)
        if more > .none {
            request(more)
        }
        return true
    }

    private func complete(_ completion: Subscribers.Completion<MoyaError>) {
        let (_, ended) = machine.withLockedValue { $0.finish() }
        guard ended, let subscriber = subscriber.withLockedValue({ $0 }) else { return }
        self.subscriber.withLockedValue { $0 = nil }
        subscriber.receive(completion: completion)
    }
}
