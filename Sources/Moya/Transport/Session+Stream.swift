import AsyncHTTPClient
import Foundation
import NIOCore

extension Session {
    /// Opens the exchange on its first trip to the connection pool.
    func open(_ exchange: Exchange, events: StreamEvents) -> TransportHandle {
        let handle = TransferHandle<Void>()
        var reporting = events
        reporting.head = { result in
            // The contract: a cancelled transfer reports nothing, it only stops.
            if !handle.isCancelled {
                events.head(result)
            }
        }
        startStream(PoolTrips(exchange: exchange, configuration: configuration), events: reporting, handle: handle)
        return handle
    }

    /// Sends one trip of a streamed exchange, with the session's settings as for every request
    /// (its client, pinned hosts included; default headers; idle timeout; whole-request deadline;
    /// the event loop of an upload), and the same rules for a trip the pool gave up on
    /// (`PoolTrips`), as long as no head has reached the reader.
    private func startStream(_ trips: PoolTrips, events: StreamEvents, handle: TransferHandle<Void>) {
        let prepared: PreparedTransfer
        do {
            prepared = try PreparedTransfer(exchange: trips.exchange, sessionHeaders: sessionHeaders)
        } catch {
            events.head(.failure(MoyaError.wrapping(error)))
            Self.stopped(handle)
            return
        }
        let route = route(for: prepared.request.url)
        let delegate = StreamDelegate(
            request: trips.exchange.request,
            idleTimeout: trips.idleTimeout,
            onHead: events.head,
            onEnd: events.ended
        )
        // Counted until the transfer ends, which for a stream is when its reader is done: while
        // a long stream with a body runs, other uploads through the client overlap it, and stay
        // `.indifferent`, as they would beside any upload in flight.
        let loop = route.uploadLoops.choose(bodyLength: prepared.uploadLength)
        let task = route.client.execute(
            request: prepared.request,
            delegate: delegate,
            eventLoop: loop.preference,
            deadline: trips.scope.deadline,
            logger: trips.scope.logger
        )
        handle.track(task)
        delegate.track(task)
        task.futureResult.whenComplete { [self] result in
            loop.end()
            switch result {
            case .success:
                delegate.ended(nil)
            case .failure(let error):
                switch afterFailure(error, of: trips, mayQueueAgain: !delegate.hasHead) {
                case .queueAgain:
                    startStream(trips, events: events, handle: handle)
                    return
                case .fail(let failure):
                    delegate.ended(failure)
                }
            }
            Self.stopped(handle)
        }
    }

    /// The transfer has wound down: whoever cancelled it hears so now.
    private static func stopped(_ handle: TransferHandle<Void>) {
        for callback in handle.finished().whenStopped {
            callback()
        }
    }
}
