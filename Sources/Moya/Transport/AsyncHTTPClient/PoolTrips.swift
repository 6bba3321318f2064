import AsyncHTTPClient
import Foundation
import NIOCore

/// An exchange's trips to the connection pool: what every trip of it shares, fixed by the
/// first, and what a trip's failure means for it. Both of the session's transports send
/// through it, the transfer (`Session+Transport`) and the stream (`Session+Stream`), so that
/// both keep the same rules.
///
/// The pool may give up on a request before it gets a connection; the exchange is then queued
/// again (see `ConnectionWait`). That trip keeps the first one's idle timeout, wait and scope:
/// the request never waits longer, nor gets a later deadline, for having been queued twice.
struct PoolTrips: Sendable {
    let exchange: TransportExchange
    /// How long the transfer may go without bytes moving (`idleTimeout(for:default:)`).
    let idleTimeout: TimeAmount
    /// When the exchange first asked for a connection, and how long it may wait for one.
    let wait: ConnectionWait
    /// The whole-request deadline and the logger, shared by every trip.
    let scope: TransferScope
    /// The redirects followed so far; `nil` when the session follows none.
    let hops: RedirectHops?
    /// The request the answer reports as its own: the first, whatever redirects followed, as
    /// AsyncHTTPClient reported it when it followed them.
    let firstRequest: URLRequest

    /// The trips of `exchange`, starting now, with `configuration`'s timeouts and logger, and
    /// the redirects `rule` follows.
    ///
    /// `configuration` is borrowed: an initializer takes its arguments owned by default, which
    /// copied the session's whole configuration, a retain of each of its fields, per request.
    init(exchange: TransportExchange, configuration: borrowing Session.Configuration, redirects rule: RedirectRule) {
        self.exchange = exchange
        self.idleTimeout = Self.idleTimeout(for: exchange.request, default: TimeAmount(configuration.readTimeout))
        self.wait = ConnectionWait(
            idleTimeout: idleTimeout,
            requestTimeout: configuration.requestTimeout.map(TimeAmount.init)
        )
        self.scope = TransferScope(configuration: configuration, deadline: exchange.nioDeadline)
        self.hops = RedirectHops(rule: rule, firstURL: exchange.request.url)
        self.firstRequest = exchange.request
    }

    /// The trips of the request a redirect led to: a new wait for a connection, starting now,
    /// and the rest kept (the idle timeout, the whole-request deadline, the first request).
    init(redirectedTo exchange: TransportExchange, after previous: PoolTrips, hops: RedirectHops) {
        self.exchange = exchange
        self.idleTimeout = previous.idleTimeout
        self.wait = previous.wait.restarted()
        self.scope = previous.scope
        self.hops = hops
        self.firstRequest = previous.firstRequest
    }

    /// URLSession's rule: a request's `timeoutInterval` is how long it may wait for data.
    /// `URLRequest` defaults it to 60 seconds; a value the caller set wins over the session's.
    static func idleTimeout(for request: URLRequest, default fallback: TimeAmount) -> TimeAmount {
        let interval = request.timeoutInterval
        guard interval > 0, interval.isFinite, interval != URLRequest.defaultTimeoutInterval else { return fallback }
        // Beyond about 292 years the nanoseconds no longer fit in an Int64; such a timeout means "never".
        let nanoseconds = interval * 1e9
        guard nanoseconds < Double(Int64.max) else { return .nanoseconds(.max) }
        return .nanoseconds(Int64(nanoseconds))
    }

    /// What follows a trip that failed.
    enum AfterFailure {
        /// The pool gave up before the exchange had a connection, and it may wait longer:
        /// nothing was sent, so the same exchange goes back into the queue.
        case queueAgain
        /// The exchange fails with this error: what URLSession reports for the same fault.
        case fail(Error)
    }
}

extension AsyncHTTPClientTransport {
    /// What follows a trip of `trips` that failed with `error`.
    ///
    /// - Parameter mayQueueAgain: `false` once any of the response reached the caller (a
    ///   stream's head): such an exchange is never sent twice.
    func afterFailure(_ error: Error, of trips: PoolTrips, mayQueueAgain: Bool = true) -> PoolTrips.AfterFailure {
        let url = trips.exchange.request.url
        guard mayQueueAgain, ConnectionWait.isPoolTimeout(error) else {
            return .fail(transferError(trips.scope.explaining(error), url: url))
        }
        guard trips.wait.mayWaitAgain() else {
            let limit = configuration.asyncHTTPClient.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit
            return .fail(trips.wait.timeoutError(url: url, connectionLimit: limit))
        }
        return .queueAgain
    }
}
