import NIOConcurrencyHelpers

/// The requests a provider started and that have not finished, so that a provider released
/// while they run can cancel them, as Moya does when its Alamofire session goes away.
final class ActiveRequests: Sendable {
    private let lifecycles = NIOLockedValueBox<[ObjectIdentifier: RequestLifecycle]>([:])

    func insert(_ lifecycle: RequestLifecycle) {
        lifecycles.withLockedValue { $0[ObjectIdentifier(lifecycle)] = lifecycle }
    }

    func remove(_ lifecycle: RequestLifecycle) {
        _ = lifecycles.withLockedValue { $0.removeValue(forKey: ObjectIdentifier(lifecycle)) }
    }

    /// Cancels every request still running; each completes with the cancelled error.
    func cancelAll() {
        let running = lifecycles.withLockedValue { lifecycles in
            defer { lifecycles = [:] }
            return Array(lifecycles.values)
        }
        for lifecycle in running {
            lifecycle.cancelAll()
        }
    }
}
