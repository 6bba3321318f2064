import NIOConcurrencyHelpers

/// The requests in flight per endpoint, so that identical endpoints share one request.
///
/// Joining is atomic: looking up an entry and adding a caller to it happen under one lock.
///
/// An entry stays while its callers' completions run and leaves when the last of them returns,
/// as Moya removes it right after calling them: a completion may look itself up in
/// `inflightRequests`. A caller arriving meanwhile cannot join the finished request (its
/// lifecycle refuses new subscribers) and starts a new one, which takes the entry over.
final class InflightTable: Sendable {
    /// One shared request and the callers whose completions have not returned yet.
    private struct Entry {
        /// The endpoint of the call that started the request, for `inflightRequests`.
        let endpoint: Endpoint
        let lifecycle: RequestLifecycle
        /// In the order the callers joined; the ticket tells a caller's own completion apart.
        var callers: [(ticket: Int, completion: UserValue<Completion>)]
    }

    private struct State {
        var entries: [InflightKey: Entry] = [:]
        var nextTicket = 0
    }

    private let state = NIOLockedValueBox(State())

    /// Adds a caller to the request in flight for `endpoint`, or creates one with `make` if
    /// there is none. `isNew` says whether the caller must start it.
    ///
    /// The endpoint's key is computed here, before the lock: it runs the target's encoders.
    func join(
        _ endpoint: Endpoint,
        delivery: ResultDelivery,
        progress: ProgressBlock?,
        completion: @escaping Completion,
        make: () -> RequestLifecycle
    ) -> (lifecycle: RequestLifecycle, subscriber: Int, isNew: Bool)? {
        let key = InflightKey(endpoint)
        return state.withLockedValue { state in
            let ticket = state.nextTicket
            state.nextTicket += 1
            // Weak: a request that never finishes must not keep a released provider's table.
            let tracked: Completion = { [weak self] result in
                completion(result)
                self?.completionReturned(key, ticket: ticket)
            }
            let caller = (ticket: ticket, completion: UserValue(completion))

            if let existing = state.entries[key],
                let id = existing.lifecycle.addSubscriber(delivery: delivery, progress: progress, completion: tracked)
            {
                state.entries[key]?.callers.append(caller)
                return (existing.lifecycle, id, false)
            }
            let lifecycle = make()
            guard let id = lifecycle.addSubscriber(delivery: delivery, progress: progress, completion: tracked) else {
                return nil
            }
            state.entries[key] = Entry(endpoint: endpoint, lifecycle: lifecycle, callers: [caller])
            return (lifecycle, id, true)
        }
    }

    /// One caller's completion has run. The state machine delivers every caller exactly once,
    /// so when no caller is left the request is over and its entry leaves. A ticket not found
    /// belonged to an entry a newer request has taken over; that entry is not touched.
    private func completionReturned(_ key: InflightKey, ticket: Int) {
        state.withLockedValue { state in
            guard var entry = state.entries[key],
                let index = entry.callers.firstIndex(where: { $0.ticket == ticket })
            else { return }
            entry.callers.remove(at: index)
            state.entries[key] = entry.callers.isEmpty ? nil : entry
        }
    }

    /// The completions per endpoint of the callers that have not been completed yet,
    /// including a completion that is running.
    ///
    /// Keyed by `Endpoint`, as Moya's `inflightRequests` is. Built outside the lock, since
    /// hashing endpoints runs their encoders; entries whose endpoints compare equal are merged.
    var snapshot: [Endpoint: [Completion]] {
        let entries = state.withLockedValue { state in
            state.entries.values.map { ($0.endpoint, $0.callers.map(\.completion.value)) }
        }
        return Dictionary(entries, uniquingKeysWith: +)
    }
}
