import Foundation

/// Identical requests in flight at the same time share one network request: the first is
/// sent, the others wait for its response, which each receives as its own.
///
/// Requests are identical when their method, URL and headers (cookies included) are, they have
/// no body, and they download to no file; only the `methods` given are merged, `GET` and
/// `HEAD` by default. Each caller keeps its own plugins, completion, progress and
/// cancellation: cancelling one never cancels the others, and the network request is
/// cancelled only when every caller has gone. Unlike `trackInflights`, which merges whole
/// calls of one provider before plugins run, this merges what reaches the network, across
/// every provider on the session.
public struct RequestCoalescing: Sendable {
    /// The methods whose requests are merged.
    public var methods: Set<Moya.Method>

    /// Merges requests of `methods`, `GET` and `HEAD` by default.
    public init(methods: Set<Moya.Method> = [.get, .head]) {
        self.methods = methods
    }
}

extension RequestCoalescing {
    /// What makes two requests the same request: method, URL, and every header in order.
    struct Key: Hashable, Sendable {
        let method: String
        let url: String
        let headers: [String]

        init?(_ exchange: TransportExchange, methods: Set<Moya.Method>) {
            let request = exchange.request
            let method = request.httpMethod ?? "GET"
            guard methods.contains(Moya.Method(rawValue: method)), request.httpBody == nil,
                request.httpBodyStream == nil, let url = request.url, !Self.downloads(exchange.endpoint.task)
            else { return nil }
            self.method = method
            self.url = url.absoluteString
            self.headers = (request.allHTTPHeaderFields ?? [:]).map { "\($0.key.lowercased()): \($0.value)" }.sorted()
        }

        private static func downloads(_ task: Moya.Task) -> Bool {
            switch task {
            case .downloadDestination, .downloadParameters: true
            default: false
            }
        }
    }

    /// The requests in flight, each with the callers waiting for it, apart from any transport
    /// so that joining and leaving can be tested alone.
    struct Table<Caller> {
        struct Flight {
            let id: Int
            var callers: [Int: Caller]
        }

        /// What a caller does after `join`.
        enum Joined: Equatable {
            /// It starts the network request of flight `flight`.
            case lead(flight: Int, caller: Int)
            /// It waits for flight `flight`'s response.
            case follow(flight: Int, caller: Int)
        }

        private var flights: [Key: Flight] = [:]
        private var nextID = 0

        /// How many requests are in flight.
        var count: Int { flights.count }

        mutating func join(_ key: Key, _ caller: Caller) -> Joined {
            let callerID = nextID &+ 1
            let newFlight = nextID &+ 2
            nextID = newFlight
            // One lookup of the key, which is hashed whole: a flight in the table always has
            // a caller, so an empty one is the new flight this caller leads.
            return Self.add(caller, id: callerID, to: &flights[key, default: Flight(id: newFlight, callers: [:])])
        }

        private static func add(_ caller: Caller, id: Int, to flight: inout Flight) -> Joined {
            let leads = flight.callers.isEmpty
            flight.callers[id] = caller
            return leads ? .lead(flight: flight.id, caller: id) : .follow(flight: flight.id, caller: id)
        }

        /// The callers of flight `id` still waiting, which its response now goes to.
        mutating func land(_ key: Key, flight id: Int) -> [Caller] {
            guard let flight = flights.removeValue(forKey: key) else { return [] }
            guard flight.id == id else {
                // A newer flight of the same request, started after every caller of this one
                // left: it stays.
                flights[key] = flight
                return []
            }
            return Array(flight.callers.values)
        }

        /// Caller `caller` of flight `id` leaves: the caller, to answer alone, unless the
        /// response reached it first, and whether it was the last (the flight is then gone).
        mutating func leave(_ key: Key, flight id: Int, caller: Int) -> (caller: Caller?, wasLast: Bool) {
            guard var flight = flights[key], flight.id == id, let left = flight.callers.removeValue(forKey: caller)
            else {
                return (nil, false)
            }
            flights[key] = flight.callers.isEmpty ? nil : flight
            return (left, flight.callers.isEmpty)
        }

        /// The callers of flight `id`.
        func callers(_ key: Key, flight id: Int) -> [Caller] {
            guard let flight = flights[key], flight.id == id else { return [] }
            return Array(flight.callers.values)
        }
    }
}

extension RequestCoalescing.Table: Sendable where Caller: Sendable {}
extension RequestCoalescing.Table.Flight: Sendable where Caller: Sendable {}
