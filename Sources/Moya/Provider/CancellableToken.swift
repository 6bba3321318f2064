import NIOConcurrencyHelpers

/// A `Cancellable` that runs an action the first time it is cancelled.
public final class CancellableToken: Cancellable, CustomDebugStringConvertible {
    private let state: NIOLockedValueBox<(cancelled: Bool, action: (@Sendable () -> Void)?)>

    /// Creates a token whose `cancel()` runs `action` once.
    public init(action: @escaping @Sendable () -> Void) {
        self.state = NIOLockedValueBox((false, action))
    }

    /// Whether `cancel()` was called.
    public var isCancelled: Bool {
        state.withLockedValue { $0.cancelled }
    }

    /// Runs the action, the first time only.
    public func cancel() {
        let action: (@Sendable () -> Void)? = state.withLockedValue { state in
            guard !state.cancelled else { return nil }
            state.cancelled = true
            defer { state.action = nil }
            return state.action
        }
        action?()
    }

    /// Whether the token was cancelled.
    public var debugDescription: String {
        isCancelled ? "CancellableToken(cancelled)" : "CancellableToken(active)"
    }
}
