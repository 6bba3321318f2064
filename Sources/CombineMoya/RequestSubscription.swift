import Foundation
import Moya

#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif

/// The subscription of a `RequestPublisher`: it starts the request on the first demand, hands
/// values and the completion to the subscriber one at a time, and cancels the request when it is
/// cancelled. The rules are `StateMachine`'s; this type holds the lock, the subscriber and the
/// request, and performs what the machine decides, outside the lock.
///
/// Events may arrive on any thread, at any moment: while the subscriber is still in
/// `receive(subscription:)`, inside `request(_:)` (a request that answers synchronously), or
/// concurrently with a demand or a cancellation. The subscriber sees `receive(subscription:)`
/// first, then its values, then exactly one completion, never two calls at once. No thread
/// ever waits for another: a thread that finds the delivery role taken records its event and
/// returns.
///
/// Threads: an event is delivered by the thread that reports it (the callback queue), so that
/// values arrive where the provider's completions would. The exceptions: a value that waited
/// for demand goes out on the thread that asks for it; an answer given synchronously inside
/// `request(_:)` goes out once `receive(subscription:)` has returned, on that thread; and an
/// answer from another thread while the subscriber is still in `receive(subscription:)` goes
/// out on the callback queue once that call has returned (on the subscribing thread when the
/// publisher names no queue).
///
/// - Note: `@unchecked Sendable` because the compiler cannot see that the lock guards every
///   stored `var`: each is read and written only inside `withLock`. The subscriber, which need
///   not be `Sendable`, is called only by the thread holding the delivery role, so calls to it
///   never overlap.
final class RequestSubscription<Downstream: Subscriber>: Subscription, RequestEventReceiver, @unchecked Sendable
where Downstream.Input: Sendable, Downstream.Failure == MoyaError {
    typealias Output = Downstream.Input

    private let lock = NSLock()
    private let isFinal: @Sendable (Output) -> Bool
    /// Where an answer that arrived from another thread during the hand-over is delivered.
    private let callbackQueue: DispatchQueue?

    private var machine = StateMachine()
    /// The subscriber, until it is sent its completion or cancels.
    private var downstream: Downstream?
    /// Sends the request; taken by the first demand (or dropped by a cancellation).
    private var start: ((RequestEventSink<Output>) -> Moya.Cancellable)?
    /// The running request, once started and until it ends.
    private var request: Moya.Cancellable?
    /// The thread calling `receive(subscription:)`, until that call returns.
    private var handOverThread: Thread? = Thread.current
    /// Whether another thread reported an event during the hand-over.
    private var reportedElsewhereDuringHandOver = false

    init(
        downstream: Downstream,
        isFinal: @escaping @Sendable (Output) -> Bool,
        callbackQueue: DispatchQueue?,
        start: @escaping (RequestEventSink<Output>) -> Moya.Cancellable
    ) {
        self.downstream = downstream
        self.isFinal = isFinal
        self.callbackQueue = callbackQueue
        self.start = start
    }

    /// Called by the publisher once `receive(subscription:)` has returned: delivers what
    /// arrived meanwhile.
    func didHandOver() {
        let (mayDeliver, elsewhere) = lock.withLock { () -> (Bool, Bool) in
            handOverThread = nil
            return (machine.handOverEnded(), reportedElsewhereDuringHandOver)
        }
        guard mayDeliver else { return }
        if elsewhere, let callbackQueue {
            // Through a protocol that does not name the subscriber's type, which need not be
            // `Sendable`.
            let receiver: any RequestEventReceiver<Output> = self
            callbackQueue.async { receiver.deliverPending() }
        } else {
            deliver()
        }
    }

    func request(_ demand: Subscribers.Demand) {
        let (start, mayDeliver) = lock.withLock { () -> (((RequestEventSink<Output>) -> Moya.Cancellable)?, Bool) in
            let action = machine.request(demand)
            defer { if action.start { self.start = nil } }
            return (action.start ? self.start : nil, action.deliver)
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
            let cancelRequest = machine.cancel()
            downstream = nil
            start = nil
            defer { self.request = nil }
            return cancelRequest ? self.request : nil
        }
        request?.cancel()
    }

    // MARK: Request events

    private func begin(_ start: (RequestEventSink<Output>) -> Moya.Cancellable) {
        // The closures see the subscription through a protocol that does not name the
        // subscriber's type, which need not be `Sendable`.
        let receiver: any RequestEventReceiver<Output> = self
        let sink = RequestEventSink<Output>(
            send: { value in receiver.receive(value) },
            end: { error in receiver.receiveEnd(error) }
        )
        let request = start(sink)
        let cancelNow = lock.withLock { () -> Bool in
            // Cancelled while `start` ran: the machine said so before the request existed.
            if machine.wasCancelled {
                return true
            }
            if machine.keepsRequest {
                self.request = request
            }
            return false
        }
        if cancelNow {
            request.cancel()
        }
    }

    func receive(_ value: Output) {
        let final = isFinal(value)
        let mayDeliver = lock.withLock { () -> Bool in
            noteIfReportedElsewhereDuringHandOver()
            return machine.receive(value, isFinal: final)
        }
        if mayDeliver {
            deliver()
        }
    }

    func receiveEnd(_ error: MoyaError?) {
        let mayDeliver = lock.withLock { () -> Bool in
            noteIfReportedElsewhereDuringHandOver()
            let deliver = machine.receiveEnd(error)
            if !machine.keepsRequest {
                request = nil
            }
            return deliver
        }
        if mayDeliver {
            deliver()
        }
    }

    /// Call with the lock held.
    private func noteIfReportedElsewhereDuringHandOver() {
        if let handOverThread, handOverThread !== Thread.current {
            reportedElsewhereDuringHandOver = true
        }
    }

    // MARK: Delivery

    /// Delivers, holding the delivery role `didHandOver()` took.
    func deliverPending() {
        deliver()
    }

    /// Passes events to the subscriber until none can go, then gives up the delivery role.
    /// Call without the lock, holding the delivery role.
    private func deliver() {
        while true {
            let (step, downstream) = lock.withLock { () -> (StateMachine.Step, Downstream?) in
                let step = machine.nextStep()
                let downstream = self.downstream
                if case .completion = step {
                    self.downstream = nil
                }
                return (step, downstream)
            }
            guard let downstream else { return }
            switch step {
            case .idle:
                return
            case .value(let value):
                let more = downstream.receive(value)
                lock.withLock { machine.addDemand(more) }
            case .completion(let error):
                if let error {
                    downstream.receive(completion: .failure(error))
                } else {
                    downstream.receive(completion: .finished)
                }
                return
            }
        }
    }
}

/// What a request reports to its subscription.
protocol RequestEventReceiver<Output>: Sendable {
    associatedtype Output

    /// A value of the request; ignored after a final value or the end.
    func receive(_ value: Output)

    /// The end of the request: `nil` for success. Only the first counts.
    func receiveEnd(_ error: MoyaError?)

    /// Passes on what is waiting; call only when holding the delivery role.
    func deliverPending()
}
