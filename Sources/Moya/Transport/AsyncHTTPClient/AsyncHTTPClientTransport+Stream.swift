import AsyncHTTPClient
import Foundation
import NIOCore

extension AsyncHTTPClientTransport {
    /// Opens the exchange on its first trip to the connection pool.
    func open(_ exchange: TransportExchange, events: StreamEvents) {
        startStream(
            PoolTrips(exchange: exchange, configuration: configuration, redirects: redirectRule),
            events: events
        )
    }

    /// Sends one trip of a streamed exchange, with the session's settings as for every request
    /// (its client, pinned hosts included; default headers; idle timeout; whole-request deadline;
    /// the event loop of an upload), and the same rules for a trip the pool gave up on
    /// (`PoolTrips`), as long as no head has reached the reader.
    private func startStream(_ trips: PoolTrips, events: StreamEvents) {
        let cancellation = trips.exchange.cancellation
        let prepared: PreparedTransfer
        switch prepare(trips) {
        case .success(let transfer):
            prepared = transfer
        case .failure(let error):
            events.head(.failure(error))
            return
        }
        let route = route(for: prepared.request.url)
        let delegate = StreamDelegate(
            request: trips.firstRequest,
            idleTimeout: trips.idleTimeout,
            sweep: idleSweep,
            redirectBase: route.redirectBase(for: trips.exchange.request, hops: trips.hops),
            cancellation: cancellation,
            onHead: events.head,
            onEnd: events.ended
        )
        // Counted until the transfer ends, which for a stream is when its reader is done: while
        // a long stream with a body runs, other uploads through the client overlap it, and stay
        // `.indifferent`, as they would beside any upload in flight.
        let loop = route.uploadLoops.choose(bodyLength: prepared.uploadLength)
        let task = carry(
            prepared,
            on: route,
            to: delegate,
            streamed: true,
            loop: loop,
            deadline: trips.scope.deadline,
            logger: trips.scope.logger
        )
        // At once when the attempt was cancelled while this trip started; the reader, once it
        // owns the body, cancels through the same value when it leaves.
        cancellation.onCancel { task.cancel() }
        task.futureResult.whenComplete { [self] result in
            loop.end()
            switch result {
            case .success:
                guard let redirect = delegate.redirect else {
                    delegate.ended(nil)
                    return
                }
                delegate.endedWithRedirect()
                switch afterRedirect(redirect.head, from: redirect.url, of: trips) {
                case .deliver:
                    delegate.ended(nil)
                case .follow(let next):
                    startStream(next, events: events)
                case .fail(let error):
                    events.head(.failure(error))
                }
            case .failure(let error):
                switch afterFailure(error, of: trips, mayQueueAgain: !delegate.hasHead) {
                case .queueAgain:
                    startStream(trips, events: events)
                    return
                case .fail(let failure):
                    delegate.ended(failure)
                }
            }
        }
    }
}
