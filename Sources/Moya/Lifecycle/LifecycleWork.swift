import Dispatch

/// Where the lifecycle's own asynchronous work runs (asynchronous plugins' `prepare`, the
/// interceptor's `adapt` and `retry`, the wait before a retry): on Dispatch's threads, never on
/// Swift's cooperative pool.
///
/// The callback API must not depend on that pool: code on the way to async/await often blocks
/// a pool thread while it waits for a Moya callback (a semaphore around `request`), and with
/// every pool thread blocked so, work queued on the pool would never run, and the callback it
/// waits for would never come. A task whose executor preference is this one runs its jobs, and
/// resumes after each `await`, on a Dispatch queue instead.
final class LifecycleWork: TaskExecutor {
    /// The one executor of every provider.
    static let executor = LifecycleWork()

    /// Dispatch's global queue, whose pool grows past a blocked thread, unlike Swift's.
    private let queue = DispatchQueue.global()

    private init() {}

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async {
            job.runSynchronously(on: executor)
        }
    }

    /// Starts `operation` in an unstructured task that prefers this executor where the
    /// platform has task executors (all but Apple systems before macOS 15 and iOS 18, where it
    /// runs on the cooperative pool as before). The task inherits the caller's task-local
    /// values, as any unstructured task does.
    @discardableResult
    static func start(
        _ operation: @escaping @Sendable () async -> Void
    ) -> _Concurrency.Task<Void, Never> {
        if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
            return _Concurrency.Task(executorPreference: executor, operation: operation)
        }
        return _Concurrency.Task(operation: operation)
    }
}
