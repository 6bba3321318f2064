import Foundation

/// Whether, and how, an event stream reconnects when its connection ends or breaks.
///
/// Off by default (`.never`). With a policy, `MoyaProvider.events(_:reconnect:)` reconnects
/// as `EventSource` does: after the server's `retry` time (or `delay` until it sends one),
/// sending the last event ID in `Last-Event-ID`. It reconnects after the server closes the
/// stream and after a lost connection or a timeout; never after a cancel, a status code the
/// target's `validationType` refuses, or `204 No Content`, which ends the stream.
///
/// ```swift
/// for try await event in provider.events(.feed, reconnect: .attempts(5)) { ... }
/// ```
public struct EventStreamReconnectPolicy: Sendable, Hashable {
    /// How many times in a row it may reconnect without receiving an event; each event
    /// received starts the count again. `0` never reconnects.
    public var maximumAttempts: Int

    /// How long to wait before reconnecting, in seconds, until the server sets its own time
    /// with a `retry` field.
    public var delay: TimeInterval

    /// The longest wait before reconnecting, in seconds, whatever the server asks for.
    public var maximumDelay: TimeInterval

    /// Creates a policy.
    public init(maximumAttempts: Int, delay: TimeInterval = 3, maximumDelay: TimeInterval = 60) {
        self.maximumAttempts = max(0, maximumAttempts)
        self.delay = delay.isFinite ? max(0, delay) : 0
        self.maximumDelay = maximumDelay.isNaN ? 0 : max(0, maximumDelay)
    }

    /// Never reconnects: the stream ends when its connection does.
    public static let never = EventStreamReconnectPolicy(maximumAttempts: 0)

    /// Reconnects up to `maximumAttempts` times in a row without an event.
    public static func attempts(
        _ maximumAttempts: Int,
        delay: TimeInterval = 3,
        maximumDelay: TimeInterval = 60
    ) -> EventStreamReconnectPolicy {
        EventStreamReconnectPolicy(maximumAttempts: maximumAttempts, delay: delay, maximumDelay: maximumDelay)
    }

    /// The wait before a reconnection, in seconds, given the server's `retry` in milliseconds.
    func wait(serverRetry milliseconds: Int?) -> TimeInterval {
        let asked = milliseconds.map { Double($0) / 1000 } ?? delay
        return min(asked, maximumDelay)
    }

    /// Whether `error` ended a connection in a way a reconnection may mend: the connection was
    /// lost, refused or timed out. Cancels, refused status codes, bad requests and events too
    /// large are final.
    static func isTransient(_ error: MoyaError) -> Bool {
        guard case .underlying(let underlying, _) = error else { return false }
        let nsError = underlying as NSError
        return nsError.domain == NSURLErrorDomain && nsError.code != NSURLErrorCancelled
    }
}
