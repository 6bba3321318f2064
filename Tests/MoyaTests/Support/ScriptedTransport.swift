import Foundation

@testable import Moya

/// A transport the test drives: it records every send, answers only when told to, and winds
/// down after a cancel only when told to, so that a lifecycle's races can be played in a
/// chosen order.
final class ScriptedTransport: StreamTransport {
    /// One call of `send`.
    struct Send: Sendable {
        let exchange: TransportExchange
        let events: TransportEvents

        /// The attempt's cancellation, and the transport's answer once it has wound down.
        var handle: ScriptedHandle {
            ScriptedHandle(cancellation: exchange.cancellation) { [events] in
                events.completion(.failure(TransportCancellation.error(url: nil)))
            }
        }

        /// Answers the attempt, as the network would.
        func answer(_ result: Result<Response, MoyaError>) {
            events.completion(result)
        }
    }

    /// One call of `open`.
    struct Open: Sendable {
        let exchange: TransportExchange
        let events: StreamEvents

        /// The attempt's cancellation, and the transport's answer once it has wound down.
        var handle: ScriptedHandle {
            ScriptedHandle(cancellation: exchange.cancellation) { [events] in
                events.head(.failure(TransportCancellation.error(url: nil)))
            }
        }
    }

    private let sends = Synchronized<[Send]>([])
    private let stream = AsyncStream<Send>.makeStream()
    private let opens = AsyncStream<Open>.makeStream()
    /// Runs inside `send`, before it returns: a race with the transport starting.
    private let whileStarting: (@Sendable (Send) -> Void)?

    init(whileStarting: (@Sendable (Send) -> Void)? = nil) {
        self.whileStarting = whileStarting
    }

    /// The latest attempt.
    var lastSend: Send? {
        sends.update { $0.last }
    }

    /// How many attempts were sent.
    var sendCount: Int {
        sends.update { $0.count }
    }

    func send(_ exchange: TransportExchange, events: TransportEvents) {
        let send = Send(exchange: exchange, events: events)
        sends.update { $0.append(send) }
        whileStarting?(send)
        stream.continuation.yield(send)
    }

    /// Waits for the next attempt.
    func nextSend() async -> Send? {
        var iterator = stream.stream.makeAsyncIterator()
        return await iterator.next()
    }

    func open(_ exchange: TransportExchange, events: StreamEvents) {
        opens.continuation.yield(Open(exchange: exchange, events: events))
    }

    /// Waits for the next streamed attempt.
    func nextOpen() async -> Open? {
        var iterator = opens.stream.makeAsyncIterator()
        return await iterator.next()
    }
}

/// What the test sees of an attempt's cancellation: whether the lifecycle cancelled it, and a
/// way to play the transport winding down, which then answers as the contract says.
struct ScriptedHandle: Sendable {
    let cancellation: TransportCancellation
    let answerAfterStopping: @Sendable () -> Void

    var isCancelled: Bool {
        cancellation.isCancelled
    }

    /// The transfer has wound down: the transport answers, and the cancel may be delivered.
    func finishStopping() {
        answerAfterStopping()
    }
}

/// Records a lifecycle's deliveries, and lets a test wait for the first.
final class Deliveries: Sendable {
    private let results = Synchronized<[Result<Response, MoyaError>]>([])
    private let stream = AsyncStream<Result<Response, MoyaError>>.makeStream()

    var all: [Result<Response, MoyaError>] {
        results.update { $0 }
    }

    /// A completion that records.
    var completion: Completion {
        { [self] result in
            results.update { $0.append(result) }
            stream.continuation.yield(result)
        }
    }

    /// Subscribes to `lifecycle`'s result, delivered inline.
    func subscribe(to lifecycle: RequestLifecycle) -> Int? {
        lifecycle.addSubscriber(delivery: .inPlace, progress: nil, completion: completion)
    }

    /// Waits for the next delivery.
    func next() async -> Result<Response, MoyaError>? {
        var iterator = stream.stream.makeAsyncIterator()
        return await iterator.next()
    }
}
