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
        let lifecycle: RequestLifecycle
        /// In the order the callers joined; the ticket tells a caller's own completion apart.
        var callers: [(ticket: Int, completion: UserValue<Completion>)]
    }

    private struct State {
        var entries: [Endpoint: Entry] = [:]
        var nextTicket = 0
    }

    private let state = NIOLockedValueBox(State())

    /// Adds a caller to the request in flight for `endpoint`, or creates one with `make` if
    /// there is none. `isNew` says whether the caller must start it.
    func join(
        _ endpoint: Endpoint,
        callback: CallbackTarget,
        progress: ProgressBlock?,
        completion: @escaping Completion,
        make: () -> RequestLifecycle
    ) -> (lifecycle: RequestLifecycle, subscriber: Int, isNew: Bool)? {
        state.withLockedValue { state in
            let ticket = state.nextTicket
            state.nextTicket += 1
            // Weak: a request that never finishes must not keep a released provider's table.
            let tracked: Completion = { [weak self] result in
                completion(result)
                self?.completionReturned(endpoint, ticket: ticket)
            }
            let caller = (ticket: ticket, completion: UserValue(completion))

            if let existing = state.entries[endpoint],
                let id = existing.lifecycle.addSubscriber(callback: callback, progress: progress, completion: tracked)
            {
                state.entries[endpoint]?.callers.append(caller)
                return (existing.lifecycle, id, false)
            }
            let lifecycle = make()
            guard let id = lifecycle.addSubscriber(callback: callback, progress: progress, completion: tracked) else {
                return nil
            }
            state.entries[endpoint] = Entry(lifecycle: lifecycle, callers: [caller])
            return (lifecycle, id, true)
        }
    }

    /// One caller's completion has run. The state machine delivers every caller exactly once,
    /// so when no caller is left the request is over and its entry leaves. A ticket not found
    /// belonged to an entry a newer request has taken over; that entry is not touched.
    private func completionReturned(_ endpoint: Endpoint, ticket: Int) {
        state.withLockedValue { state in
            guard var entry = state.entries[endpoint],
                let index = entry.callers.firstIndex(where: { $0.ticket == ticket })
            else { return }
            entry.callers.remove(at: index)
            state.entries[endpoint] = entry.callers.isEmpty ? nil : entry
        }
    }

    /// The completions per endpoint of the callers that have not been completed yet,
    /// including a completion that is running.
    var snapshot: [Endpoint: [Completion]] {
        state.withLockedValue { state in
            state.entries.mapValues { $0.callers.map(\.completion.value) }
        }
    }
}
