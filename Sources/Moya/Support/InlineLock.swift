// Where the standard library's `Mutex` is available without an OS version check (Linux,
// Windows, Android), the lock and its value are stored inside the owning object. On Apple
// platforms `Mutex` needs macOS 15 and iOS 18, beyond this package's floor, so the value lives
// in a `NIOLockedValueBox` there. ThreadSanitizer does not see `Mutex`'s futex synchronise the
// accesses it guards and reports them as races, so `scripts/test-sanitized.sh thread` builds
// with `MOYA_THREAD_SANITIZER`, which selects the box: the code under the lock is the same.
#if canImport(Darwin) || MOYA_THREAD_SANITIZER
import NIOConcurrencyHelpers

/// A value and the lock that guards it, inside the objects a request makes (its lifecycle, the
/// `RequestType` plugins see, a received response), with `NIOLockedValueBox`'s `withLockedValue`.
/// Value types that share their state (a transfer handle, the idle watch) keep their box: the
/// box is the one object they have.
///
/// Here, the value lives in a `NIOLockedValueBox` (see the top of this file).
///
/// Not copyable, like `Mutex`: a copy would be a second lock.
struct InlineLock<Value: Sendable>: ~Copyable, Sendable {
    private let box: NIOLockedValueBox<Value>

    init(_ value: Value) {
        self.box = NIOLockedValueBox(value)
    }

    /// Runs `body` on the value, under the lock.
    borrowing func withLockedValue<T>(_ body: (inout Value) -> T) -> T {
        box.withLockedValue(body)
    }
}
#else
import Synchronization

/// A value and the lock that guards it, inside the objects a request makes (its lifecycle, the
/// `RequestType` plugins see, a received response), with `NIOLockedValueBox`'s `withLockedValue`.
/// Value types that share their state (a transfer handle, the idle watch) keep their box: the
/// box is the one object they have.
///
/// Here, the standard library's `Mutex`: a futex word beside the value, stored in the owner, so
/// no object of its own (one allocation fewer per owner and so per request), and as fast to
/// lock as `NIOLockedValueBox`'s mutex.
///
/// Not copyable, like `Mutex`: a copy would be a second lock.
struct InlineLock<Value: Sendable>: ~Copyable, Sendable {
    private let mutex: Mutex<Value>

    init(_ value: Value) {
        self.mutex = Mutex(value)
    }

    /// Runs `body` on the value, under the lock.
    borrowing func withLockedValue<T>(_ body: (inout Value) -> T) -> T {
        mutex.withLock { value in body(&value) }
    }
}
#endif
