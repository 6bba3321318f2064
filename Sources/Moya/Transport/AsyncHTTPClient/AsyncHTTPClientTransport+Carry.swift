import AsyncHTTPClient
import Foundation
import Logging
import NIOCore

extension AsyncHTTPClientTransport {
    /// One trip under way, whoever carries it: AsyncHTTPClient, or the transport itself for a
    /// plain-`http` request through an HTTP proxy (`ForwardedExchange`).
    struct CarriedTrip<Outcome: Sendable>: Sendable {
        let futureResult: EventLoopFuture<Outcome>
        /// The event loop the trip's events arrive on.
        let eventLoop: EventLoop
        /// Stops the trip; it fails with AsyncHTTPClient's `cancelled`.
        let cancel: @Sendable () -> Void
    }

    /// Sends `prepared` on `route`, reporting to `receiver`.
    ///
    /// - Parameter deadline: the whole-request deadline this trip's carrier enforces (the one
    ///   the receiver's idle watch does not: `TransferScope.deadlines`).
    func carry<Receiver: ExchangeReceiver & HTTPClientResponseDelegate>(
        _ prepared: PreparedTransfer,
        on route: Route,
        to receiver: Receiver,
        loop: UploadLoopPreference.Choice,
        deadline: NIODeadline?,
        logger: Logger?
    ) -> CarriedTrip<Receiver.Outcome> where Receiver.Response == Receiver.Outcome {
        if let proxy = route.forwardProxy, prepared.request.url.scheme?.lowercased() == "http" {
            let exchange = ForwardedExchange.start(
                ForwardedRequest(prepared.request, through: proxy),
                receiver: receiver,
                eventLoop: route.client.eventLoopGroup.next(),
                decompression: configuration.asyncHTTPClient.decompression,
                connectTimeout: connectTimeout(of: route.client),
                deadline: deadline
            )
            return CarriedTrip(futureResult: exchange.futureResult, eventLoop: exchange.eventLoop) {
                exchange.cancel()
            }
        }
        let task = route.client.execute(
            request: prepared.request,
            delegate: receiver,
            eventLoop: loop.preference,
            deadline: deadline,
            logger: logger
        )
        return CarriedTrip(futureResult: task.futureResult, eventLoop: task.eventLoop) { task.cancel() }
    }
}
