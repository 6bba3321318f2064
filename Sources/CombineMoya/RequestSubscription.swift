import Foundation
import Moya

#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif

/// The subscription of a `RequestPublisher`: it starts the request on the first demand, hands
/// values and the completion to the subscriber one at a time, and cancels the request when it is
/// cancelled.
///
/// Events may arrive on any thread, at any moment: while the subscriber is still in
/// `receive(subscription:)`, inside `request(_:)` (a request that answers synchronously), or
/// concurrently with a demand or a cancellation. They are put into the state under the lock, and
/// one thread at a time — whichever holds the delivery role — passes them on, outside the lock.
/// The subscriber therefore sees `receive(subscription:)` first, then its values, then exactly
/// one completion, never two calls at once, and never a call after `cancel()` returns on the
/// thread that delivers.
///
/// Threads: an event is delivered by the thread that reports it (the callback queue), so that
/// values arrive where the provider's completions would. The exceptions: a value that waited
/// for demand goes out on the thread that asks for it, and an answer given synchronously inside
/// `request(_:)` goes out once `receive(subscription:)` has returned. An answer from another
/// thread while the subscriber is still in `receive(subscription:)` waits for that call to
/// return, as Combine's own publishers make it wait.
///
/// Back-pressure: a request yields at most a handful of values (one response, or progress
/// updates and a last response). A value the subscriber has no demand for waits; a newer one
/// replaces it, except that the final value is never replaced. `.finished` waits for the final
/// value to be delivered; a failure is delivered at once.
///
/// - Note: `@unchecked Sendable` because the compiler cannot see that the lock guards every
///   stored `var`: each is read and written only inside `withLock`. The subscriber, which need
///   not be `Sendable`, is called only by the thread holding the delivery role, so calls to it
///   never overlap.
final class RequestSubscription<Downstream: Subscriber>: Subscription, RequestEventReceiver, @unchecked Sendable
where Downstream.Input: Sendable, Downstream.Failure == MoyaError {
    typealias Output = Downstream.Input

    private enum Step {
        case idle
        case value(Downstream, Output)
        case completion(Downstream, MoyaError?)
    }

    /// Guards the state below; threads wait on it for the hand-over to end.
    private let lock = NSCondition()
    private let isFinal: @Sendable (Output) -> Bool

    /// The subscriber, until it is sent its completion or cancels.
    private var downstream: Downstream?
    /// Sends the request; taken by the first demand (or dropped by a cancellation).
    private var start: ((RequestEventSink<Output>) -> Moya.Cancellable)?
    /// The running request, once started and until it ends.
    private var request: Moya.Cancellable?
    private var demand: Subscribers.Demand = .none
    /// A value waiting for demand.
    private var pending: Output?
    private var receivedFinalValue = false
    /// The end of the request, once known: `.some(nil)` is success, `.some(error)` a failure.
    private var end: MoyaError??
    private var cancelled = false
    /// Whether a thread is passing events to the subscriber.
    private var delivering = false
    /// The thread calling `receive(subscription:)`, until that call returns.
    private var handOverThread: Thread? = Thread.current
    /// How many threads wait for the hand-over to end, to deliver their events themselves.
    private var threadsWaitingForHandOver = 0

    init(
        downstream: Downstream,
        isFinal: @escaping @Sendable (Output) -> Bool,
        start: @escaping (RequestEventSink<Output>) -> Moya.Cancellable
    ) {
        self.downstream = downstream
        self.isFinal = isFinal
        self.start = start
    }

    /// Called by the publisher once `receive(subscription:)` has returned: lets a thread that
    /// waited deliver its events, or delivers what arrived meanwhile itself.
    func didHandOver() {
        let mayDeliver = lock.withLock { () -> Bool in
            handOverThread = nil
            if threadsWaitingForHandOver > 0 {
                lock.broadcast()
                return false
            }
            return claimDelivery()
        }
        if mayDeliver {
            deliver()
        }
    }

    func request(_ demand: Subscribers.Demand) {
        guard demand > .none else { return }
        let (start, mayDeliver) = lock.withLock { () -> (((RequestEventSink<Output>) -> Moya.Cancellable)?, Bool) in
            guard downstream != nil else { return (nil, false) }
            self.demand += demand
            let start = self.start
            self.start = nil
            return (start, claimDelivery())
        }
        if let start {
            begin(start)
        }
        if mayDeliver {
            deliver()
        }
    }

    func cancel() {
        let request = lock.withLock { () -> Moya.Cancellable? in
            guard !cancelled, downstream != nil else { return nil }
            cancelled = true
            downstream = nil
            start = nil
            pending = nil
            let request = self.request
            self.request = nil
            return request
        }
        request?.cancel()
    }

    // MARK: Request events

    private func begin(_ start: (RequestEventSink<Output>) -> Moya.Cancellable) {
        guard !lock.withLock({ cancelled }) else { return }
        // The closures see the subscription through a protocol that does not name the
        // subscriber's type, which need not be `Sendable`.
        let receiver: any RequestEventReceiver<Output> = self
        let sink = RequestEventSink<Output>(
            send: { value in receiver.receive(value) },
            end: { error in receiver.receiveEnd(error) }
        )
        let request = start(sink)
        let cancelNow = lock.withLock { () -> Bool in
            if cancelled { return true }
            if end == nil {
                self.request = request
            }
            return false
        }
        if cancelNow {
            request.cancel()
        }
    }

    func receive(_ value: Output) {
        let mayDeliver = lock.withLock { () -> Bool in
            guard downstream != nil, end == nil, !receivedFinalValue else { return false }
            pending = value
            receivedFinalValue = isFinal(value)
            return claimDelivery()
        }
        if mayDeliver {
            deliver()
        }
    }

    func receiveEnd(_ error: MoyaError?) {
        let mayDeliver = lock.withLock { () -> Bool in
            guard downstream != nil, end == nil else { return false }
            end = .some(error)
            request = nil
            if error != nil {
                pending = nil
            }
            return claimDelivery()
        }
        if mayDeliver {
            deliver()
        }
    }

    // MARK: Delivery

    /// Takes the delivery role if there is something to deliver and no thread holds the role,
    /// first waiting for the hand-over to end unless called by the thread handing over. Call
    /// with the lock held.
    ///
    /// Claiming only when there is something to deliver leaves an event to the thread that
    /// reports it, rather than to a thread that happened to hold the role for nothing.
    private func claimDelivery() -> Bool {
        guard hasSomethingToDeliver else { return false }
        if let handOverThread {
            // The subscriber is still in `receive(subscription:)`. On that thread (an answer
            // given inside `request(_:)`), `didHandOver()` delivers; another thread waits.
            guard handOverThread !== Thread.current else { return false }
            threadsWaitingForHandOver += 1
            while self.handOverThread != nil {
                lock.wait()
            }
            threadsWaitingForHandOver -= 1
        }
        guard !delivering, hasSomethingToDeliver else { return false }
        delivering = true
        return true
    }

    /// Whether `nextStep()` would deliver something. Call with the lock held.
    private var hasSomethingToDeliver: Bool {
        guard downstream != nil else { return false }
        if pending != nil {
            return demand > .none
        }
        return end != nil
    }

    /// Passes events to the subscriber until none can go, then gives up the delivery role.
    /// Call without the lock, holding the delivery role.
    private func deliver() {
        while true {
            switch lock.withLock({ nextStep() }) {
            case .idle:
                return
            case .value(let downstream, let value):
                let more = downstream.receive(value)
                if more > .none {
                    lock.withLock { demand += more }
                }
            case .completion(let downstream, let error):
                if let error {
                    downstream.receive(completion: .failure(error))
                } else {
                    downstream.receive(completion: .finished)
                }
                return
            }
        }
    }

    /// What to deliver next; releases the delivery role when there is nothing. Call with the
    /// lock held.
    private func nextStep() -> Step {
        guard let downstream else {
            delivering = false
            return .idle
        }
        if let value = pending, demand > .none {
            pending = nil
            demand -= 1
            return .value(downstream, value)
        }
        if pending == nil, let end {
            // The last call the subscriber gets; the delivery role is never given up again.
            self.downstream = nil
            return .completion(downstream, end)
        }
        delivering = false
        return .idle
    }
}

/// What a request reports to its subscription.
protocol RequestEventReceiver<Output>: Sendable {
    associatedtype Output

    /// A value of the request; ignored after a final value or the end.
    func receive(_ value: Output)

    /// The end of the request: `nil` for success. Only the first counts.
    func receiveEnd(_ error: MoyaError?)
}
