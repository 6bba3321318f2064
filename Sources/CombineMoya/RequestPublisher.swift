import Foundation
import Moya

#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif

/// A publisher that sends one request per subscription, when the subscriber first asks for a
/// value, and cancels it when the subscription is cancelled.
///
/// `start` sends the request and reports its events to the sink it is given; it runs once per
/// subscription, never before demand.
struct RequestPublisher<Output: Sendable>: Publisher {
    typealias Failure = MoyaError

    /// Whether a value is the last one the request sends: after it only the completion counts.
    let isFinal: @Sendable (Output) -> Bool

    /// The queue the request reports on, when known: where an answer that arrives during the
    /// subscription's hand-over is delivered.
    var callbackQueue: DispatchQueue? = nil

    /// Sends the request, reporting to the sink, and returns the means to cancel it.
    let start: (RequestEventSink<Output>) -> Moya.Cancellable

    func receive<Downstream: Subscriber>(subscriber: Downstream)
    where Downstream.Input == Output, Downstream.Failure == MoyaError {
        let subscription = RequestSubscription(
            downstream: subscriber,
            isFinal: isFinal,
            callbackQueue: callbackQueue,
            start: start
        )
        subscriber.receive(subscription: subscription)
        subscription.didHandOver()
    }
}

/// Where a request reports its values and its end; safe to call from any thread, any number of
/// times: only the first end counts, and nothing counts after it.
struct RequestEventSink<Output: Sendable>: Sendable {
    let send: @Sendable (Output) -> Void
    let end: @Sendable (MoyaError?) -> Void

    /// Ends the stream of values successfully.
    func finish() {
        end(nil)
    }

    /// Ends the stream of values with an error.
    func fail(_ error: MoyaError) {
        end(error)
    }
}
