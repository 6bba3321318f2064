import Foundation

/// Tells a transport that the attempt it carries is not wanted any more.
///
/// The lifecycle makes one per attempt, decides alone when to cancel it, and hands it to the
/// transport inside the `TransportExchange`: there is no handle to return, so there is no moment when a
/// cancel arrives "before the handle" for anyone to model. A transport registers what stops its
/// work with `onCancel`, which runs at once when the attempt was cancelled already. A streamed
/// attempt's reader, once it owns the body, cancels through the same value when it leaves.
public final class TransportCancellation: Sendable {
    private struct State {
        var cancelled = false
        /// The first handler stored inline: almost every attempt has exactly one.
        var first: (@Sendable () -> Void)?
        var more: [@Sendable () -> Void] = []
    }

    private let state = InlineLock(State())

    /// A cancellation not cancelled yet.
    public init() {}

    /// Whether the attempt was cancelled.
    public var isCancelled: Bool {
        state.withLockedValue { $0.cancelled }
    }

    /// Runs `handler` once the attempt is cancelled: now, if it already was. A handler runs at
    /// most once, outside the lock, on the thread that cancelled.
    public func onCancel(_ handler: @escaping @Sendable () -> Void) {
        let runNow = state.withLockedValue { state in
            guard !state.cancelled else { return true }
            if state.first == nil {
                state.first = handler
            } else {
                state.more.append(handler)
            }
            return false
        }
        if runNow {
            handler()
        }
    }

    /// Cancels the attempt: runs every handler registered so far. Later calls do nothing.
    public func cancel() {
        let handlers = state.withLockedValue { state -> [@Sendable () -> Void] in
            guard !state.cancelled else { return [] }
            state.cancelled = true
            defer {
                state.first = nil
                state.more = []
            }
            return (state.first.map { [$0] } ?? []) + state.more
        }
        for handler in handlers {
            handler()
        }
    }
}

extension TransportCancellation {
    /// What an attempt cancelled by its caller reports: URLSession's cancelled error.
    static func error(url: URL?) -> MoyaError {
        var userInfo: [String: Any] = [NSLocalizedDescriptionKey: "cancelled"]
        userInfo[NSURLErrorFailingURLErrorKey] = url
        return .underlying(NSError(domain: NSURLErrorDomain, code: NSURLErrorCancelled, userInfo: userInfo), nil)
    }
}
