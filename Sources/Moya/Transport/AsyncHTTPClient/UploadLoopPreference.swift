import AsyncHTTPClient
import NIOConcurrencyHelpers
import NIOCore

/// Which event loop a transfer that sends a body asks AsyncHTTPClient to run its delegate on.
///
/// With `.indifferent`, AsyncHTTPClient picks the delegate's loop before the pool picks a
/// connection, so with two loops about half the uploads run their delegate on one loop and
/// their connection on the other: every part of the body, and every write's completion, then
/// crosses between the two. An upload sent while no other is in flight through the same client
/// asks for the client's home loop instead; the pool prefers the connection the last one left
/// there, and the body goes from the delegate to the socket on one thread (a 64 KB `POST` one
/// at a time: about 17 % less CPU, `Benchmarks/README.md`). Uploads that overlap stay
/// `.indifferent`, so that concurrent transfers keep spreading over the loops rather than all
/// of a client's connections living on one.
///
/// What the home loop saves are the body's crossings: transfers without a body to stream (a GET,
/// or a `POST` whose body is empty) keep `.indifferent`, as one at a time they measured slower
/// on a fixed loop, not faster.
struct UploadLoopPreference: Sendable {
    /// How many uploads are in flight, apart from any event loop, so that it can be tested alone.
    struct State {
        private(set) var inFlight = 0

        /// An upload starts: whether it is the only one in flight.
        mutating func begin() -> Bool {
            inFlight += 1
            return inFlight == 1
        }

        /// An upload ended (it succeeded, failed or was cancelled).
        mutating func end() {
            inFlight = max(inFlight - 1, 0)
        }
    }

    /// One of the client's own loops: AsyncHTTPClient accepts no other (it traps on a loop its
    /// group does not list). `nil` for a group that does not list the loop it hands out, whose
    /// uploads then all stay `.indifferent`.
    let home: EventLoop?
    private let state = NIOLockedValueBox(State())

    /// - Parameter group: the event loop group of the client the uploads go through.
    init(group: EventLoopGroup) {
        let loop = group.next()
        self.home = group.makeIterator().contains { $0 === loop } ? loop : nil
    }

    /// One trip's event loop: the loop it asks for, and the count its end must release.
    struct Choice: Sendable {
        /// The home loop, or `nil` for `.indifferent`.
        let loop: EventLoop?
        /// The count the trip is in until it ends: `nil` for a trip without bytes to send, or
        /// when the client's group has no home loop to give.
        fileprivate let counted: NIOLockedValueBox<State>?

        /// What to pass AsyncHTTPClient's `execute(request:delegate:eventLoop:…)`.
        var preference: HTTPClient.EventLoopPreference {
            loop.map { .delegate(on: $0) } ?? .indifferent
        }

        /// The trip ended (it succeeded, failed or was cancelled): once, for every choice.
        func end() {
            counted?.withLockedValue { $0.end() }
        }
    }

    /// The event loop of a trip whose body has `bodyLength` bytes (`nil` without a body): the
    /// home loop when it is the only upload in flight, else `.indifferent`. Only a body with
    /// bytes to stream gains from the home loop, and only such a trip is counted. Each choice is
    /// balanced by one `Choice.end()`.
    func choose(bodyLength: Int64?) -> Choice {
        guard let home, let bodyLength, bodyLength > 0 else { return Choice(loop: nil, counted: nil) }
        let alone = state.withLockedValue { $0.begin() }
        return Choice(loop: alone ? home : nil, counted: state)
    }
}
