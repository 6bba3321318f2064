/// The `Cancellable` a caller gets back: cancelling it cancels this caller's part of the request.
///
/// A value: it fits in a `Cancellable` existential without an allocation of its own, and its
/// state lives in the lifecycle.
struct RequestToken: Cancellable, Sendable {
    private let lifecycle: RequestLifecycle?
    private let subscriber: Int

    init(lifecycle: RequestLifecycle?, subscriber: Int) {
        self.lifecycle = lifecycle
        self.subscriber = subscriber
    }

    /// Whether `cancel()` was called (or the provider cancelled every request): kept by the
    /// lifecycle, under the lock it already has, so that a token is one object.
    var isCancelled: Bool {
        lifecycle?.isCancelled(subscriber: subscriber) ?? false
    }

    func cancel() {
        lifecycle?.cancel(subscriber: subscriber)
    }
}

/// Moya 15's name for the `Cancellable` its provider hands out, joined in-flight requests
/// included; Moya's own tests cast to it. Here every token is a `RequestToken`.
typealias CancellableWrapper = RequestToken
