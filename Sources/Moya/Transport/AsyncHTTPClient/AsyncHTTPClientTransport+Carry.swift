import AsyncHTTPClient
import Foundation
import Logging
import NIOCore

extension AsyncHTTPClientTransport {
    /// One trip under way, whoever carries it: AsyncHTTPClient, or the transport itself on a
    /// connection of its own (`DedicatedExchange`).
    /// An enum rather than closures, so that the many trips through the pool allocate nothing
    /// for it.
    enum CarriedTrip<Receiver: ExchangeReceiver>: Sendable {
        case pool(HTTPClient.Task<Receiver.Outcome>)
        case dedicated(DedicatedExchange<Receiver>)

        var futureResult: EventLoopFuture<Receiver.Outcome> {
            switch self {
            case .pool(let task): return task.futureResult
            case .dedicated(let exchange): return exchange.futureResult
            }
        }

        /// The event loop the trip's events arrive on.
        var eventLoop: EventLoop {
            switch self {
            case .pool(let task): return task.eventLoop
            case .dedicated(let exchange): return exchange.eventLoop
            }
        }

        /// Stops the trip; it fails with AsyncHTTPClient's `cancelled`.
        func cancel() {
            switch self {
            case .pool(let task): task.cancel()
            case .dedicated(let exchange): exchange.cancel()
            }
        }
    }

    /// Sends `prepared` on `route`, reporting to `receiver`.
    ///
    /// - Parameters:
    ///   - streamed: whether the response is read as it arrives: it then goes on a connection
    ///     of its own where the route allows (`Route.dedicatedPeer`).
    ///   - deadline: the whole-request deadline this trip's carrier enforces (the one the
    ///     receiver's idle watch does not: `TransferScope.deadlines`).
    func carry<Receiver: ExchangeReceiver & HTTPClientResponseDelegate>(
        _ prepared: PreparedTransfer,
        on route: Route,
        to receiver: Receiver,
        streamed: Bool,
        loop: UploadLoopPreference.Choice,
        deadline: NIODeadline?,
        logger: Logger?
    ) -> CarriedTrip<Receiver> where Receiver.Response == Receiver.Outcome {
        if let peer = route.dedicatedPeer(for: prepared.request.url, streamed: streamed) {
            let exchange = DedicatedExchange.start(
                DedicatedRequest(prepared.request, to: peer),
                receiver: receiver,
                // The upload's home loop when it has one: the body is read there too.
                eventLoop: loop.loop ?? route.client.eventLoopGroup.next(),
                decompression: configuration.asyncHTTPClient.decompression,
                connectTimeout: connectTimeout(of: route.client),
                deadline: deadline
            )
            if let key = dedicatedExchanges.add(failing: { exchange.fail(reason: $0) }) {
                exchange.futureResult.whenComplete { _ in self.dedicatedExchanges.remove(key) }
            }
            return .dedicated(exchange)
        }
        let task = route.client.execute(
            request: prepared.request,
            delegate: receiver,
            eventLoop: loop.preference,
            deadline: deadline,
            logger: logger
        )
        return .pool(task)
    }
}
