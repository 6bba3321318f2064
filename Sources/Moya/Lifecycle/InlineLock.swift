#if canImport(Darwin)
import NIOConcurrencyHelpers
#else
import Synchronization
#endif

/// A value and the lock that guards it, inside the objects a request makes (its lifecycle, the
/// `RequestType` plugins see, a received response), with `NIOLockedValueBox`'s `withLockedValue`.
/// Value types that share their state (a transfer handle, the idle watch) keep their box: the
/// box is the one object they have.
///
/// Where the standard library's `Mutex` is available without an OS version check (Linux,
/// Windows, Android), the lock and its value are stored inside the owning object: no object of
/// their own, one allocation fewer per owner and so per request. On Apple platforms `Mutex`
/// needs macOS 15 and iOS 18, beyond this package's floor, and the value lives in a
/// `NIOLockedValueBox` as before. Both lock on a futex or `os_unfair_lock`/`pthread_mutex_t`
/// at the same cost; only the allocation differs.
///
/// Not copyable, like `Mutex`: a copy would be a second lock.
struct InlineLock<Value: Sendable>: ~Copyable, Sendable {
    #if canImport(Darwin)
    private let box: NIOLockedValueBox<Value>
    #else
    private let mutex: Mutex<Value>
    #endif

    init(_ value: Value) {
        #if canImport(Darwin)
        self.box = NIOLockedValueBox(value)
        #else
        self.mutex = Mutex(value)
        #endif
    }

    /// Runs `body` on the value, under the lock.
    borrowing func withLockedValue<T>(_ body: (inout Value) -> T) -> T {
        #if canImport(Darwin)
        box.withLockedValue(body)
        #else
        mutex.withLock { value in body(&value) }
        #endif
    }
}
