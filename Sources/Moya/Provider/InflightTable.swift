import NIOConcurrencyHelpers

/// The requests in flight per endpoint, so that identical endpoints share one request.
///
/// Joining is atomic: looking up an entry and adding a caller to it happen under one lock, and
/// a finished request leaves the table before it delivers, so an entry can never outlive its
/// request.
final class InflightTable: Sendable {
    private let entries = NIOLockedValueBox<[Endpoint: RequestLifecycle]>([:])

    /// Adds a caller to the request in flight for `endpoint`, or creates one with `make` if
    /// there is none. `isNew` says whether the caller must start it.
    func join(
        _ endpoint: Endpoint,
        callback: CallbackTarget,
        progress: ProgressBlock?,
        completion: @escaping Completion,
        make: () -> RequestLifecycle
    ) -> (lifecycle: RequestLifecycle, subscriber: Int, isNew: Bool)? {
        entries.withLockedValue { entries in
            if let existing = entries[endpoint],
               let id = existing.addSubscriber(callback: callback, progress: progress, completion: completion) {
                return (existing, id, false)
            }
            let lifecycle = make()
            guard let id = lifecycle.addSubscriber(callback: callback, progress: progress, completion: completion) else {
                return nil
            }
            entries[endpoint] = lifecycle
            return (lifecycle, id, true)
        }
    }

    /// Removes the entry for `lifecycle`'s endpoint if it is still that lifecycle's.
    func remove(_ lifecycle: RequestLifecycle) {
        entries.withLockedValue { entries in
            if entries[lifecycle.context.endpoint] === lifecycle {
                entries[lifecycle.context.endpoint] = nil
            }
        }
    }

    /// The completions waiting per endpoint.
    var snapshot: [Endpoint: [Completion]] {
        entries.withLockedValue { entries in
            entries.mapValues(\.pendingCompletions)
        }
    }
}
