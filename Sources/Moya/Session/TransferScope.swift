import AsyncHTTPClient
import Logging
import NIOCore

/// What every trip of one exchange to the connection pool shares, fixed when it first asks
/// for a connection: its whole-request deadline and the logger AsyncHTTPClient logs it to.
///
/// The session queues an exchange again when the pool gave up on it before it got a connection
/// (see `ConnectionWait`). That trip keeps the scope: it never extends the deadline, and
/// AsyncHTTPClient's logs of it still carry the request id of the hooks, whose task-local is
/// gone by the time it starts on an event loop.
struct TransferScope: Sendable {
    /// The metadata key under which AsyncHTTPClient's logs carry `RequestContext.requestID`.
    static let requestIDMetadataKey = "moya.request-id"

    /// How long the whole request may take; `nil` for no limit.
    let requestTimeout: TimeAmount?
    /// When the request must have finished: AsyncHTTPClient fails it with `deadlineExceeded`
    /// then, wherever it is (queued for a connection, sending, receiving).
    let deadline: NIODeadline?
    /// The logger for AsyncHTTPClient; `nil` keeps its logging disabled.
    let logger: Logger?

    /// The scope of an exchange starting now, in the task that runs the provider's hooks.
    /// `deadline` is the request's, set when it first started sending (`Exchange.deadline`).
    init(configuration: Session.Configuration, deadline: NIODeadline?) {
        self.requestTimeout = configuration.requestTimeout
        self.deadline = deadline
        // No logger by default, so no copy and no task-local read per request.
        self.logger = configuration.logger.map { logger in
            guard let requestID = RequestContext.current?.requestID else { return logger }
            var logger = logger
            logger[metadataKey: Self.requestIDMetadataKey] = .string(requestID)
            return logger
        }
    }

    /// `error`, or for AsyncHTTPClient's `deadlineExceeded`, which says only that a deadline
    /// passed, the timeout that set it.
    func explaining(_ error: Error) -> Error {
        guard let requestTimeout, (error as? HTTPClientError) == .deadlineExceeded else { return error }
        return TransferTimeout(limit: .wholeRequest, seconds: Double(requestTimeout.nanoseconds) / 1e9)
    }
}
