import Foundation

/// Something that carries a prepared request and reports its outcome: the stub or the network.
protocol Transport: Sendable {
    /// Starts sending. `events` may be called on any thread, even before `send` returns;
    /// `completion` is called exactly once unless the returned handle is cancelled first.
    func send(_ exchange: Exchange, events: TransportEvents) -> TransportHandle
}

/// Everything a transport needs to know about one request.
struct Exchange: Sendable {
    /// The request after plugins prepared it.
    var request: URLRequest
    /// The endpoint, whose task says how to send the body and receive the response.
    var endpoint: Endpoint
    /// The object plugins saw in `willSend`, holding credentials they attached.
    var requestType: MoyaRequest
}

/// How a transport reports back.
struct TransportEvents: Sendable {
    /// Whether anyone listens for progress now: a transport builds no `Progress` otherwise.
    var wantsProgress: @Sendable () -> Bool = { true }
    var progress: @Sendable (Progress) -> Void
    var completion: @Sendable (Result<Response, MoyaError>) -> Void
}

/// Stops a transport's work.
protocol TransportHandle: Sendable {
    /// Stops the work, then calls `stopped` once it has wound down: no file, connection or
    /// timer of the request is left behind. The transport's `completion` is not called for a
    /// request cancelled before it finished.
    func cancel(then stopped: @escaping @Sendable () -> Void)
}
