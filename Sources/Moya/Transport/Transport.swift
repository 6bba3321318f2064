import Foundation
import NIOCore

/// Something that carries a prepared request and reports its outcome: the stub, the network,
/// or a decorator around another transport.
///
/// The contract every transport keeps, so that the lifecycle above it can rely on it:
///
/// - **Once.** `events.completion` is called exactly once per `send`, whatever happens: with the
///   outcome, or after a cancel; it may be called on any thread, even before `send` returns (an
///   immediate stub).
/// - **Cancel.** The caller owns cancellation (`Exchange.cancellation`). Once it is cancelled,
///   the transport stops the attempt, releases everything it held (connection, timers,
///   temporary files), and only then calls `completion`, with a cancelled error unless the
///   outcome won the race. Nothing is sent for an attempt cancelled before it started.
/// - **One attempt.** A transport sends what it is given once. Adapting, retrying and answering
///   authentication challenges belong to the lifecycle above it, which owns every attempt.
/// - **Errors.** Failures are `MoyaError`s; transport faults are `.underlying` with the
///   `NSURLErrorDomain` error URLSession reports for the same fault (`URLErrorMapping`), so
///   code written against URLSession keeps matching codes. Nothing is sent when the request
///   is invalid (illegal headers, an upload that is not a regular file).
/// - **Timeouts.** A request's `timeoutInterval`, when not URLRequest's default, is how long it
///   may go without bytes moving (URLSession's rule); the exchange's `deadline` bounds the
///   rest. Waiting for a pooled connection counts against those, never the connect timeout.
/// - **Headers.** The session's default headers are sent unless the request sets the same name.
/// - **Bodies.** A body is rebuilt from the endpoint's task on every call, so a retry sends it
///   again; a stream part already read cannot be, and fails before sending.
/// - **Downloads.** A download is written to a temporary file and moved to its destination only
///   for a 2xx response; otherwise, and on any failure, the file is removed.
/// - **Progress.** `events.progress` is called only while `events.wantsProgress()` is `true`.
/// - **Streams.** `open` keeps the same rules up to the head: `events.head` is called exactly
///   once, with the head and its body, or with the failure that came first (a cancel's
///   included). From then on the body's reader owns the transfer: reading paces it, and
///   leaving the body (or dropping it unread) stops it. `events.ended` is called once, when
///   the reader is done.
protocol Transport: Sendable {
    /// Starts sending, keeping the contract above.
    func send(_ exchange: Exchange, events: TransportEvents)

    /// Starts sending a request whose response is read as it arrives, keeping the contract above.
    func open(_ exchange: Exchange, events: StreamEvents)
}

/// Everything a transport needs to know about one attempt of a request: plain values, nothing
/// that plugins see.
struct Exchange: Sendable {
    /// The request after plugins prepared it and the interceptor adapted it.
    var request: URLRequest
    /// The endpoint, whose task says how to send the body and receive the response.
    var endpoint: Endpoint
    /// When the whole request must have finished (the session's whole-request timeout, fixed
    /// when the request first started sending); `nil` for no limit. Every attempt of a request
    /// shares it.
    var deadline: NIODeadline?
    /// Cancels this attempt; the lifecycle owns it (see `TransportCancellation`).
    var cancellation: TransportCancellation
}

/// How a transport reports back.
struct TransportEvents: Sendable {
    /// Whether anyone listens for progress now: a transport builds no `Progress` otherwise.
    var wantsProgress: @Sendable () -> Bool = { true }
    var progress: @Sendable (Progress) -> Void
    var completion: @Sendable (Result<Response, MoyaError>) -> Void
}

/// How a transport reports back on a streamed request.
struct StreamEvents: Sendable {
    /// The head, with the body still to read, or the failure that came before it.
    var head: @Sendable (Result<OpenedStream, MoyaError>) -> Void
    /// The body's reader is done: it read the end, met the transfer's failure, or left.
    var ended: @Sendable (ChunkChannel.Termination) -> Void
}

/// A streamed attempt whose head has arrived.
struct OpenedStream: Sendable {
    /// The head, as a response with an empty body.
    var head: Response
    /// The body; dropping it unread ends the transfer.
    var chunks: ResponseChunks
}
