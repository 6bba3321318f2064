import Foundation
import NIOConcurrencyHelpers

/// A decorator of the session's transport that merges identical requests in flight
/// (`RequestCoalescing`): one network request, each caller answered once, on its own.
///
/// It sits right over the transport, below the cache and the cookies, so that the requests it
/// compares carry their `Cookie` header, and one made by any provider of the session may be
/// joined. Streams pass through: each reader reads its own body.
final class CoalescingTransport: StreamTransport {
    let base: any StreamTransport
    let settings: RequestCoalescing
    private struct State {
        var table = RequestCoalescing.Table<TransportEvents>()
        /// The last caller of a flight cancelled by its leaving, answered once the network
        /// request has wound down, as the transport contract asks, by flight.
        var lastCallers: [Int: TransportEvents] = [:]
        /// Each flight's network request's cancellation, for its last caller to cancel it.
        var cancellations: [Int: TransportCancellation] = [:]
    }

    private let state = NIOLockedValueBox(State())

    init(base: any StreamTransport, settings: RequestCoalescing) {
        self.base = base
        self.settings = settings
    }

    /// How many network requests are in flight through it.
    var flightsInProgress: Int { state.withLockedValue { $0.table.count } }

    func open(_ exchange: TransportExchange, events: StreamEvents) {
        base.open(exchange, events: events)
    }

    func send(_ exchange: TransportExchange, events: TransportEvents) {
        guard let key = RequestCoalescing.Key(exchange, methods: settings.methods) else {
            base.send(exchange, events: events)
            return
        }
        // Made before the lock, used only by a leader: stored with the flight, under the same
        // lock, so that a follower cancelling at once finds it.
        let shared = TransportCancellation()
        let joined = state.withLockedValue { state in
            let joined = state.table.join(key, events)
            if case .lead(let flight, _) = joined {
                state.cancellations[flight] = shared
            }
            return joined
        }
        switch joined {
        case let .follow(flight, caller):
            exchange.cancellation.onCancel { [self] in
                if leave(key, flight: flight, caller: caller, url: exchange.request.url) {
                    networkCancellation(of: flight)?.cancel()
                }
            }
        case let .lead(flight, caller):
            var sent = exchange
            sent.cancellation = shared
            exchange.cancellation.onCancel { [self] in
                if leave(key, flight: flight, caller: caller, url: exchange.request.url) {
                    shared.cancel()
                }
            }
            let sharedEvents = TransportEvents(
                wantsProgress: { [self] in
                    state.withLockedValue { $0.table.callers(key, flight: flight) }.contains { $0.wantsProgress() }
                },
                progress: { [self] progress in
                    for caller in state.withLockedValue({ $0.table.callers(key, flight: flight) }) {
                        caller.progress(progress)
                    }
                },
                completion: { [self] result in
                    let callers = state.withLockedValue { state in
                        state.cancellations[flight] = nil
                        let last = state.lastCallers.removeValue(forKey: flight)
                        return state.table.land(key, flight: flight) + (last.map { [$0] } ?? [])
                    }
                    for caller in callers {
                        caller.completion(result)
                    }
                }
            )
            base.send(sent, events: sharedEvents)
        }
    }

    /// A caller cancelled: it is answered alone, at once, unless it was the last one. Then
    /// the flight leaves the table (a new identical request starts afresh), and the caller is
    /// answered when the network request, which the caller now cancels, has wound down.
    /// Returns whether it was the last.
    private func leave(_ key: RequestCoalescing.Key, flight: Int, caller: Int, url: URL?) -> Bool {
        let (left, wasLast) = state.withLockedValue { state in
            let (left, wasLast) = state.table.leave(key, flight: flight, caller: caller)
            if wasLast, let left {
                state.lastCallers[flight] = left
            }
            return (left, wasLast)
        }
        if !wasLast {
            left?.completion(.failure(TransportCancellation.error(url: url)))
        }
        return wasLast
    }

    /// The cancellation of flight `flight`'s network request, while it is in flight.
    private func networkCancellation(of flight: Int) -> TransportCancellation? {
        state.withLockedValue { $0.cancellations[flight] }
    }
}
