import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOPosix

/// One request to a plain-`http` URL sent through an HTTP proxy the way curl and URLSession
/// send it: in absolute form (`GET http://host/path HTTP/1.1`, RFC 9112 section 3.2.2), on a
/// connection to the proxy of its own, with `Proxy-Authorization` for the proxy alone.
///
/// AsyncHTTPClient opens a `CONNECT` tunnel for every proxied request, which a proxy allowing
/// `CONNECT` only to port 443 (the usual forward-proxy setting) refuses; `https` keeps that
/// tunnel. The exchange hands its events to the same receivers AsyncHTTPClient's tasks do
/// (`ExchangeReceiver`), so timeouts, progress, downloads and streams behave alike; the
/// connection is closed when the exchange ends (no pool: a proxied plain-http request pays
/// for its own connection to the proxy).
///
/// Everything runs on `eventLoop`: the state is loop-bound, and `fail(reason:)` and `cancel()`
/// hop onto it.
final class ForwardedExchange<Receiver: ExchangeReceiver>: TransferControl {
    let eventLoop: EventLoop
    private let receiver: Receiver
    private let promise: EventLoopPromise<Receiver.Outcome>
    private let state: NIOLoopBoundBox<LoopState>

    typealias StateMachine = ForwardedExchangeStateMachine

    private struct LoopState {
        var machine = StateMachine()
        var channel: Channel?
    }

    /// The outcome: the receiver's, or the failure that ended the exchange.
    var futureResult: EventLoopFuture<Receiver.Outcome> { promise.futureResult }

    private init(eventLoop: EventLoop, receiver: Receiver) {
        self.eventLoop = eventLoop
        self.receiver = receiver
        self.promise = eventLoop.makePromise(of: Receiver.Outcome.self)
        self.state = NIOLoopBoundBox.makeBoxSendingValue(LoopState(), eventLoop: eventLoop)
    }

    /// Connects to the proxy and sends `request`, reporting to `receiver`.
    ///
    /// - Parameters:
    ///   - decompression: the client's setting, applied as AsyncHTTPClient applies it.
    ///   - connectTimeout: how long connecting to the proxy may take; NIO's default when `nil`.
    ///   - deadline: when the whole exchange must have ended; it fails with AsyncHTTPClient's
    ///     `deadlineExceeded` then, as a task of its does.
    static func start(
        _ request: ForwardedRequest,
        receiver: Receiver,
        eventLoop: EventLoop,
        decompression: HTTPClient.Decompression,
        connectTimeout: TimeAmount?,
        deadline: NIODeadline?
    ) -> ForwardedExchange {
        let exchange = ForwardedExchange(eventLoop: eventLoop, receiver: receiver)
        if let deadline {
            let timer = eventLoop.scheduleTask(deadline: deadline) {
                exchange.fail(reason: HTTPClientError.deadlineExceeded)
            }
            exchange.futureResult.whenComplete { _ in timer.cancel() }
        }
        var bootstrap = ClientBootstrap(group: eventLoop).channelInitializer { channel in
            channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHTTPClientHandlers()
                if case .enabled(let limit) = decompression {
                    try channel.pipeline.syncOperations.addHandler(NIOHTTPResponseDecompressor(limit: limit))
                }
                try channel.pipeline.syncOperations.addHandler(Handler(exchange: exchange))
            }
        }
        if let connectTimeout {
            bootstrap = bootstrap.connectTimeout(connectTimeout)
        }
        bootstrap.connect(host: request.proxy.host, port: request.proxy.port).whenComplete { result in
            switch result {
            case .success(let channel):
                exchange.connected(channel, request: request)
            case .failure(let error):
                exchange.perform(exchange.state.value.machine.connectionFailed(error))
            }
        }
        return exchange
    }

    /// Stops the exchange with AsyncHTTPClient's `cancelled`, as cancelling a task of its does.
    func cancel() {
        fail(reason: HTTPClientError.cancelled)
    }

    func fail(reason error: Error) {
        eventLoop.execute {
            self.perform(self.state.value.machine.stopped(error))
        }
    }

    // MARK: Sending

    private func connected(_ channel: Channel, request: ForwardedRequest) {
        guard !state.value.machine.hasEnded else {
            channel.close(promise: nil)
            return
        }
        state.value.channel = channel
        channel.write(HTTPClientRequestPart.head(request.head)).whenSuccess {
            self.receiver.sentHead(control: self)
        }
        guard let body = request.body else {
            channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
            return
        }
        channel.flush()
        let writer = HTTPClient.Body.StreamWriter { data in
            let count = data.readableBytes
            return channel.writeAndFlush(HTTPClientRequestPart.body(data)).map {
                self.receiver.sentPart(count, control: self)
            }
        }
        body.stream(writer).whenComplete { result in
            switch result {
            case .success:
                channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
            case .failure(let error):
                self.fail(reason: error)
            }
        }
    }

    // MARK: Receiving

    fileprivate func received(_ part: HTTPClientResponsePart) {
        switch part {
        case .head(let head):
            perform(state.value.machine.receivedHead(head))
        case .body(let buffer):
            perform(state.value.machine.receivedPart(buffer))
        case .end:
            perform(state.value.machine.receivedEnd())
        }
    }

    fileprivate func connectionFailed(_ error: Error) {
        // A body cut short is the server closing early, as AsyncHTTPClient reports it.
        let reported = (error as? HTTPParserError) == .invalidEOFState ? HTTPClientError.remoteConnectionClosed : error
        perform(state.value.machine.connectionFailed(reported))
    }

    fileprivate func readRequested(_ read: () -> Void) {
        if case .read = state.value.machine.readRequested() {
            read()
        }
    }

    private func perform(_ action: StateMachine.Action) {
        switch action {
        case .none:
            break
        case .deliverHead(let head):
            receiver.receivedHead(head, control: self).whenComplete(deliveryEnded)
        case .deliverPart(let buffer):
            receiver.receivedPart(buffer, control: self).whenComplete(deliveryEnded)
        case .read:
            state.value.channel?.read()
        case .succeed:
            close()
            promise.completeWith(Result(catching: { try receiver.finished() }))
        case .fail(let error):
            close()
            receiver.failed(error)
            promise.fail(error)
        }
    }

    private func deliveryEnded(_ result: Result<Void, Error>) {
        switch result {
        case .success:
            perform(state.value.machine.deliveryCompleted())
        case .failure(let error):
            perform(state.value.machine.stopped(error))
        }
    }

    private func close() {
        state.value.channel?.close(promise: nil)
        state.value.channel = nil
    }
}

extension ForwardedExchange {
    /// The exchange's end of the connection's pipeline: hands the response's parts and the
    /// connection's failure to the exchange, and holds reads back while its receiver is busy.
    private final class Handler: ChannelDuplexHandler {
        typealias InboundIn = HTTPClientResponsePart
        typealias OutboundIn = HTTPClientRequestPart
        typealias OutboundOut = HTTPClientRequestPart

        private let exchange: ForwardedExchange

        init(exchange: ForwardedExchange) {
            self.exchange = exchange
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            exchange.received(unwrapInboundIn(data))
        }

        func errorCaught(context: ChannelHandlerContext, error: Error) {
            exchange.connectionFailed(error)
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
