import Foundation
import NIOCore

/// What carries a session's requests: one attempt of a request in, its response or failure out.
///
/// A `Session` holds one (`AsyncHTTPClientTransport` by default); the provider's stubs, the
/// session's HTTP cache and cookies wrap it. Write your own to send requests some other way, or
/// to answer them from somewhere else, and give it to `Session(transport:)`:
///
/// ```swift
/// struct FixtureTransport: Transport {
///     let fixtures: [String: Data]
///
///     func send(_ exchange: TransportExchange, events: TransportEvents) {
///         let path = exchange.request.url?.path ?? ""
///         guard let body = fixtures[path] else {
///             events.completion(.failure(.underlying(URLError(.fileDoesNotExist), nil)))
///             return
///         }
///         events.completion(.success(Response(statusCode: 200, data: body, request: exchange.request)))
///     }
/// }
/// ```
///
/// The contract every transport keeps, so that the lifecycle above it can rely on it:
///
/// - **Once.** `events.completion` is called exactly once per `send`, whatever happens: with the
///   outcome, or after a cancel; it may be called on any thread, even before `send` returns (an
///   immediate stub).
/// - **Cancel.** The caller owns cancellation (`TransportExchange.cancellation`). Once it is cancelled,
///   the transport stops the attempt, releases everything it held (connection, timers,
///   temporary files), and only then calls `completion`, with `MoyaError.cancelled` unless the
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
/// - **Headers.** The session's default headers (`TransportExchange.sessionHeaders`) are sent
///   unless the request sets the same name.
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
///
/// A transport of your own answers streamed requests (`MoyaProvider.stream(_:)`, events) whole:
/// the response it completes with is handed to the reader as one chunk.
public protocol Transport: Sendable {
    /// Starts sending one attempt, keeping the contract above.
    func send(_ exchange: TransportExchange, events: TransportEvents)

    /// Stops the transport for good, failing the attempts still in flight; `Session.shutdown()`
    /// calls it. By default there is nothing to stop.
    func shutdown() async throws

    /// Whether the transport keeps cookies itself, as URLSession does: the session then adds
    /// none from its cookie storage and stores none of the responses'. `false` by default; a
    /// decorator answers what the transport it wraps does.
    var keepsCookies: Bool { get }
}

extension Transport {
    /// Nothing to stop.
    public func shutdown() async throws {}

    /// The session's cookie storage keeps the cookies.
    public var keepsCookies: Bool { false }
}

/// Everything a transport needs to know about one attempt of a request: plain values, nothing
/// that plugins see.
public struct TransportExchange: Sendable {
    /// The request after plugins prepared it and the interceptor adapted it. Its body is
    /// `httpBody` for a body in memory; the endpoint's task says how to send any other body
    /// (a file, multipart parts) and where a download goes.
    public var request: URLRequest
    /// The endpoint, whose task says how to send the body and receive the response.
    public var endpoint: Endpoint
    /// When the whole request must have finished (the session's whole-request timeout, fixed
    /// when the request first started sending); `nil` for no limit. Every attempt of a request
    /// shares it.
    public var deadline: ContinuousClock.Instant?
    /// The same deadline on SwiftNIO's clock, as the lifecycle fixed it, beside the instant it
    /// stands for (`nioDeadline`).
    var fixedDeadline: (instant: ContinuousClock.Instant, nio: NIODeadline)?
    /// Cancels this attempt; the lifecycle owns it (see `TransportCancellation`).
    public var cancellation: TransportCancellation
    /// The session's default headers, to send unless `request` sets the same name (in any
    /// case). The package's own transports know them already and read them once.
    public var sessionHeaders: [String: String]
    /// The session's cookies, for a transport that follows redirects itself to keep on each
    /// hop (`CookieTransport`); `nil` without a cookie storage. A value, not a closure, so that
    /// the many requests never redirected allocate nothing for it. A transport of your own
    /// follows redirects as its client does.
    var redirectCookies: RedirectCookies?

    /// An attempt of `request` to `endpoint`.
    public init(
        request: URLRequest,
        endpoint: Endpoint,
        deadline: ContinuousClock.Instant? = nil,
        cancellation: TransportCancellation = TransportCancellation(),
        sessionHeaders: [String: String] = [:]
    ) {
        self.request = request
        self.endpoint = endpoint
        self.deadline = deadline
        self.cancellation = cancellation
        self.sessionHeaders = sessionHeaders
    }
}

/// How a transport reports back.
public struct TransportEvents: Sendable {
    /// Whether anyone listens for progress now: a transport builds no `Progress` otherwise.
    public var wantsProgress: @Sendable () -> Bool
    /// Reports the transfer's progress, while `wantsProgress()` is `true`.
    public var progress: @Sendable (Progress) -> Void
    /// Reports the attempt's outcome: exactly once.
    public var completion: @Sendable (Result<Response, MoyaError>) -> Void

    /// Events reported to these closures.
    public init(
        wantsProgress: @escaping @Sendable () -> Bool = { true },
        progress: @escaping @Sendable (Progress) -> Void,
        completion: @escaping @Sendable (Result<Response, MoyaError>) -> Void
    ) {
        self.wantsProgress = wantsProgress
        self.progress = progress
        self.completion = completion
    }
}
