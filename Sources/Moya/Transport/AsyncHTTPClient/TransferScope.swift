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
    /// When the request must have finished: it fails with AsyncHTTPClient's
    /// `deadlineExceeded` then, wherever it is (queued for a connection, sending, receiving),
    /// from AsyncHTTPClient's timer or from the transfer's own watch (see `deadlines`).
    let deadline: NIODeadline?
    /// The logger for AsyncHTTPClient; `nil` keeps its logging disabled.
    let logger: Logger?

    /// The scope of an exchange starting now, in the task that runs the provider's hooks.
    /// `deadline` is the request's, set when it first started sending (`TransportExchange.deadline`).
    /// `configuration` is borrowed, not copied (see `PoolTrips.init`).
    init(configuration: borrowing Session.Configuration, deadline: NIODeadline?) {
        self.requestTimeout = configuration.requestTimeout.map(TimeAmount.init)
        self.deadline = deadline
        // No logger by default, so no copy and no task-local read per request.
        self.logger = configuration.logger.map { logger in
            guard let requestID = RequestContext.current?.requestID else { return logger }
            var logger = logger
            logger[metadataKey: Self.requestIDMetadataKey] = .string(requestID)
            return logger
        }
    }

    /// How much later than the pool's own limit on a request's wait a deadline must come for
    /// the watch to take it: room for a timer that fires late.
    static let poolWaitMargin = TimeAmount.seconds(1)

    /// Who enforces the deadline on one trip to the connection pool: AsyncHTTPClient's own
    /// timer (`client`, passed as `execute(…deadline:)`), or the transfer's `IdleTimeoutWatch`
    /// (`watch`), whose timer the idle timeout needs anyway; never both.
    ///
    /// Both fail the request the same way, with `deadlineExceeded`, except while it still waits
    /// in the pool's queue: there AsyncHTTPClient lets the pool answer, which reports its last
    /// failed connection attempt instead when it has one. The watch cannot ask the pool that.
    /// But the pool gives up on a waiting request itself one connect timeout after it was
    /// queued, on the same event loop. So the watch takes a deadline only when it comes later
    /// than that (by `poolWaitMargin`): by then the request has stopped waiting, and the two
    /// cannot differ. A nearer deadline stays AsyncHTTPClient's, and so does every deadline
    /// when the client's connect timeout is unknown (`nil`: a client the session was given).
    /// One case is left: a redirect's next hop queues for a connection of its own, and a
    /// deadline passing then fails it with `deadlineExceeded` even when that host's pool last
    /// failed to connect (AsyncHTTPClient's timer would have reported that failure).
    func deadlines(
        connectTimeout: TimeAmount?,
        now: NIODeadline = .now()
    ) -> (client: NIODeadline?, watch: NIODeadline?) {
        guard let deadline else { return (nil, nil) }
        guard let connectTimeout, deadline > now + connectTimeout + Self.poolWaitMargin else {
            return (deadline, nil)
        }
        return (nil, deadline)
    }

    /// `error`, or for AsyncHTTPClient's `deadlineExceeded`, which says only that a deadline
    /// passed, the timeout that set it.
    func explaining(_ error: Error) -> Error {
        guard let requestTimeout, (error as? HTTPClientError) == .deadlineExceeded else { return error }
        return TransferTimeout(limit: .wholeRequest, seconds: Double(requestTimeout.nanoseconds) / 1e9)
    }
}
