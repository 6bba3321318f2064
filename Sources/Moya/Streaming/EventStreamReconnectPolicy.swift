import Foundation

/// Whether, and how, an event stream reconnects when its connection ends or breaks.
///
/// Off by default (`.never`). With a policy, `MoyaProvider.events(_:reconnect:)` reconnects
/// as `EventSource` does, sending the last event ID in `Last-Event-ID`. It reconnects after the
/// server closes the stream and after a lost connection or a timeout; never after a cancel, a
/// status code the target's `validationType` refuses, a response that is not
/// `text/event-stream`, or `204 No Content`, which ends the stream.
///
/// The wait before a reconnection starts at the server's `retry` time (or `delay` until it
/// sends one), never below `minimumDelay`, and doubles with each reconnection in a row, up to
/// `maximumDelay`. Reconnections in a row are counted until a connection proves stable: it
/// delivered an event and stayed open for `stableConnectionDuration`. A server that sends
/// `retry: 0`, one event and hangs up can then neither make the client reconnect many times a
/// second nor keep it reconnecting for ever.
///
/// ```swift
/// // Up to 3 reconnections in a row: after 3 s, 6 s and 12 s, unless the server sets `retry`.
/// for try await event in provider.events(.feed, reconnect: .attempts(3)) { ... }
/// ```
public struct EventStreamReconnectPolicy: Sendable, Hashable {
    /// How many times in a row it may reconnect before a connection proves stable. `0` never
    /// reconnects.
    public var maximumAttempts: Int

    /// How long to wait before the first reconnection in a row, in seconds, until the server
    /// sets its own time with a `retry` field.
    public var delay: TimeInterval

    /// The longest wait before reconnecting, in seconds, whatever the server asks for and
    /// however many reconnections came before.
    public var maximumDelay: TimeInterval

    /// The shortest wait before reconnecting, in seconds, whatever the server asks for: half a
    /// second by default, as Firefox does. It wins over `maximumDelay`.
    public var minimumDelay: TimeInterval

    /// How long a connection that delivered an event must stay open, in seconds, for the count
    /// of reconnections in a row, and the back-off, to start again.
    public var stableConnectionDuration: TimeInterval

    /// Creates a policy.
    public init(
        maximumAttempts: Int,
        delay: TimeInterval = 3,
        maximumDelay: TimeInterval = 60,
        minimumDelay: TimeInterval = 0.5,
        stableConnectionDuration: TimeInterval = 10
    ) {
        self.maximumAttempts = max(0, maximumAttempts)
        self.delay = Self.sanitized(delay)
        self.maximumDelay = maximumDelay.isNaN ? 0 : max(0, maximumDelay)
        self.minimumDelay = Self.sanitized(minimumDelay)
        self.stableConnectionDuration = stableConnectionDuration.isNaN ? 0 : max(0, stableConnectionDuration)
    }

    /// Never reconnects: the stream ends when its connection does.
    public static let never = EventStreamReconnectPolicy(maximumAttempts: 0)

    /// Reconnects up to `maximumAttempts` times in a row before a connection proves stable.
    public static func attempts(
        _ maximumAttempts: Int,
        delay: TimeInterval = 3,
        maximumDelay: TimeInterval = 60,
        minimumDelay: TimeInterval = 0.5
    ) -> EventStreamReconnectPolicy {
        EventStreamReconnectPolicy(
            maximumAttempts: maximumAttempts,
            delay: delay,
            maximumDelay: maximumDelay,
            minimumDelay: minimumDelay
        )
    }

    /// The wait before the `attempt`th reconnection in a row (from 1), in seconds, given the
    /// server's `retry` in milliseconds.
    func wait(serverRetry milliseconds: Int?, attempt: Int) -> TimeInterval {
        let asked = milliseconds.map { Double($0) / 1000 } ?? delay
        // Doubling stops long before a double could overflow: 2^30 s is past any maximum.
        let backedOff = max(asked, minimumDelay) * Double(1 << min(max(attempt - 1, 0), 30))
        return max(minimumDelay, min(backedOff, maximumDelay))
    }

    /// Whether `error` ended a connection in a way a reconnection may mend: the connection was
    /// lost, refused or timed out. Cancels, refused status codes, bad requests and events too
    /// large are final.
    static func isTransient(_ error: MoyaError) -> Bool {
        guard case .underlying(let underlying, _) = error else { return false }
        let nsError = underlying as NSError
        return nsError.domain == NSURLErrorDomain && nsError.code != NSURLErrorCancelled
    }

    private static func sanitized(_ seconds: TimeInterval) -> TimeInterval {
        seconds.isFinite ? max(0, seconds) : 0
    }
}
