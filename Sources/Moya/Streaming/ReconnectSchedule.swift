/// When an `EventStream` reconnects, and when it gives up: the decisions of the iterator's
/// reconnection loop, apart from its IO, so that they are tested alone.
///
/// Counts reconnections in a row until a connection proves stable (an event, and open for the
/// policy's `stableConnectionDuration`). Counting per event instead would let a server that
/// sends one event per connection reset the count on every connection.
struct ReconnectSchedule: Sendable {
    let policy: EventStreamReconnectPolicy
    /// Reconnections since the last stable connection.
    private(set) var attemptsInARow = 0
    /// When the open connection was opened; `nil` between connections.
    private var openedAt: ContinuousClock.Instant?
    private var receivedEvent = false

    init(policy: EventStreamReconnectPolicy) {
        self.policy = policy
    }

    /// A connection was opened (its head arrived) at `now`.
    mutating func connectionOpened(at now: ContinuousClock.Instant) {
        openedAt = now
        receivedEvent = false
    }

    /// The open connection delivered an event.
    mutating func eventReceived() {
        receivedEvent = true
    }

    /// The connection ended at `now` (or could not be opened).
    ///
    /// - Parameters:
    ///   - mayReconnect: Whether the way it ended allows a reconnection at all.
    ///   - serverRetry: The server's last `retry` time in milliseconds, if it sent one.
    /// - Returns: How long to wait before reconnecting, in seconds, or `nil` to end the stream.
    mutating func connectionEnded(
        at now: ContinuousClock.Instant,
        mayReconnect: Bool,
        serverRetry: Int?
    ) -> Double? {
        if let openedAt, receivedEvent, openedAt.duration(to: now) >= .seconds(policy.stableConnectionDuration) {
            attemptsInARow = 0
        }
        openedAt = nil
        receivedEvent = false
        guard mayReconnect, attemptsInARow < policy.maximumAttempts else {
            return nil
        }
        attemptsInARow += 1
        return policy.wait(serverRetry: serverRetry, attempt: attemptsInARow)
    }
}
