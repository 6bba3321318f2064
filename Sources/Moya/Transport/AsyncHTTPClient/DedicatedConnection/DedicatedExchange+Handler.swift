import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import NIOSSL
import NIOTLS

extension DedicatedExchange {
    /// The exchange's end of the connection's pipeline: hands the response's parts and the
    /// connection's failure to the exchange, and holds reads back while its receiver is busy.
    final class Handler: ChannelDuplexHandler {
        typealias InboundIn = HTTPClientResponsePart
        typealias OutboundIn = HTTPClientRequestPart
        typealias OutboundOut = HTTPClientRequestPart

        private let exchange: DedicatedExchange

        init(exchange: DedicatedExchange) {
            self.exchange = exchange
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            exchange.received(unwrapInboundIn(data))
        }

        func errorCaught(context: ChannelHandlerContext, error: Error) {
            // A server closing without TLS's close_notify: what matters is whether the HTTP
            // response was complete, which the decoder reports as the connection closes.
            if let error = error as? NIOSSLError, case .uncleanShutdown = error {
                return
            }
            exchange.connectionFailed(error)
        }

        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            if case .handshakeCompleted = event as? TLSUserEvent {
                exchange.handshakeCompleted()
            }
            context.fireUserInboundEventTriggered(event)
        }

        func channelInactive(context: ChannelHandlerContext) {
            exchange.connectionFailed(HTTPClientError.remoteConnectionClosed)
            context.fireChannelInactive()
        }

        func read(context: ChannelHandlerContext) {
            exchange.readRequested { context.read() }
        }
    }
}
