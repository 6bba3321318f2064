import Foundation

@testable import Moya

/// A transport the test drives: it records every send, answers only when told to, and stops
/// only when told to, so that a lifecycle's races can be played in a chosen order.
final class ScriptedTransport: Transport {
    /// One call of `send`.
    struct Send: Sendable {
        let exchange: Exchange
        let events: TransportEvents
        let handle: ScriptedHandle

        /// Answers the attempt, as the network would.
        func answer(_ result: Result<Response, MoyaError>) {
            events.completion(result)
        }
    }

    /// One call of `open`.
    struct Open: Sendable {
        let exchange: Exchange
        let events: StreamEvents
        let handle: ScriptedHandle
    }

    private let sends = Synchronized<[Send]>([])
    private let stream = AsyncStream<Send>.makeStream()
    private let opens = AsyncStream<Open>.makeStream()
    /// Runs inside `send`, before the handle is returned: a race with the transport starting.
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

    func send(_ exchange: Exchange, events: TransportEvents) -> TransportHandle {
        let send = Send(exchange: exchange, events: events, handle: ScriptedHandle())
        sends.update { $0.append(send) }
        whileStarting?(send)
        stream.continuation.yield(send)
        return send.handle
    }

    /// Waits for the next attempt.
    func nextSend() async -> Send? {
        var iterator = stream.stream.makeAsyncIterator()
        return await iterator.next()
    }

    func open(_ exchange: Exchange, events: StreamEvents) -> TransportHandle {
        let open = Open(exchange: exchange, events: events, handle: ScriptedHandle())
        opens.continuation.yield(open)
        return open.handle
    }

    /// Waits for the next streamed attempt.
    func nextOpen() async -> Open? {
        var iterator = opens.stream.makeAsyncIterator()
        return await iterator.next()
    }
}

/// A handle that records a cancel and winds down only when the test says so.
final class ScriptedHandle: TransportHandle {
    private let stopped = Synchronized<(cancelled: Bool, then: (@Sendable () -> Void)?)>((false, nil))

    var isCancelled: Bool {
        stopped.update { $0.cancelled }
    }

    func cancel(then stopped: @escaping @Sendable () -> Void) {
        self.stopped.update { $0 = (true, stopped) }
    }

    /// The transfer has wound down: the cancel may now be delivered.
    func finishStopping() {
        stopped.update { $0.then }?()
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
        lifecycle.addSubscriber(callback: .inline, progress: nil, completion: completion)
    }

    /// Waits for the next delivery.
    func next() async -> Result<Response, MoyaError>? {
        var iterator = stream.stream.makeAsyncIterator()
        return await iterator.next()
    }
}
