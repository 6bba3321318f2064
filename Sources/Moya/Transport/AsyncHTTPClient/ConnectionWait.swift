import AsyncHTTPClient
import Foundation
import NIOCore

/// How long a request may wait for a pooled connection.
///
/// AsyncHTTPClient gives a queued request as long to get a connection as it gives a socket to
/// connect (the connect timeout, 10 seconds by default), then fails it with
/// `getConnectionFromPoolTimeout`. A burst larger than the pool then loses requests that were
/// never sent. URLSession instead keeps such requests queued until their own timeout. So does
/// this package: a request the pool gave up on, which never left the queue, is queued again
/// for as long as its idle and whole-request timeouts allow — nothing was sent, so this is safe
/// for every method. Only a wait that outlasts them fails, with an error that says so.
struct ConnectionWait: Sendable {
    /// When the request first asked for a connection.
    let since: NIODeadline
    /// How long it may wait in all: no bytes move while it waits, so the idle timeout bounds
    /// it, and the whole-request timeout too when shorter.
    let budget: TimeAmount

    init(since: NIODeadline = .now(), idleTimeout: TimeAmount, requestTimeout: TimeAmount?) {
        self.since = since
        self.budget = requestTimeout.map { min($0, idleTimeout) } ?? idleTimeout
    }

    /// Whether `error` is the pool giving up on a request that never got a connection. A
    /// failed connection attempt is reported as its own error, not as this one.
    static func isPoolTimeout(_ error: Error) -> Bool {
        (error as? HTTPClientError) == .getConnectionFromPoolTimeout
    }

    private init(since: NIODeadline, budget: TimeAmount) {
        self.since = since
        self.budget = budget
    }

    /// The same budget, from `now`: the wait of the request a redirect led to.
    func restarted(now: NIODeadline = .now()) -> ConnectionWait {
        ConnectionWait(since: now, budget: budget)
    }

    /// Whether the request may go back into the queue.
    func mayWaitAgain(now: NIODeadline = .now()) -> Bool {
        now - since < budget
    }

    /// The error for a request that waited its whole budget: URLSession's time-out code, with a
    /// description that names the wait and the setting that bounds it.
    func timeoutError(url: URL?, connectionLimit: Int) -> NSError {
        let host = url?.host ?? "the server"
        let seconds = Double(budget.nanoseconds) / 1e9
        var userInfo: [String: Any] = [
            NSLocalizedDescriptionKey: "The request timed out after waiting \(seconds) seconds for a connection to "
                + "\(host): all \(connectionLimit) connections to it were busy. Raise "
                + "Session.Configuration.asyncHTTPClient.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit, "
                + "or send fewer requests at once.",
            NSUnderlyingErrorKey: HTTPClientError.getConnectionFromPoolTimeout,
        ]
        if let url {
            userInfo[NSURLErrorFailingURLErrorKey] = url
        }
        return NSError(domain: NSURLErrorDomain, code: NSURLErrorTimedOut, userInfo: userInfo)
    }
}
