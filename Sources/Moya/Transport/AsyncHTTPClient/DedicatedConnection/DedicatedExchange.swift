import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOPosix
import NIOSSL

/// One exchange on a connection of its own, carried by the transport itself rather than by
/// AsyncHTTPClient's pool, for what the pool cannot do:
///
/// - a plain-`http` request through an HTTP proxy, sent the way curl and URLSession send it:
///   in absolute form (`GET http://host/path HTTP/1.1`, RFC 9112 section 3.2.2), with
///   `Proxy-Authorization` for the proxy alone. AsyncHTTPClient opens a `CONNECT` tunnel for
///   every proxied request, which a proxy allowing `CONNECT` only to port 443 (the usual
///   forward-proxy setting) refuses;
/// - a streamed response (streams, events, resumable downloads), whose body parts already read
///   from the connection reach the reader before the failure when the server closes early.
///   AsyncHTTPClient's connection drops the parts it buffered while the reader held it back.
///
/// The exchange hands its events to the same receivers AsyncHTTPClient's tasks do
/// (`ExchangeReceiver`), so timeouts, progress, downloads and streams behave alike. It speaks
/// HTTP/1.1, over TLS to an `https` origin with the route's trust settings (pinned hosts
/// included), and closes the connection when it ends: no pool, so each such exchange pays for
/// its own connection.
///
/// Everything runs on `eventLoop`: the state is loop-bound, and `fail(reason:)` and `cancel()`
/// hop onto it.
final class DedicatedExchange<Receiver: ExchangeReceiver>: TransferControl {
    let eventLoop: EventLoop
    /// The request's URL, which the response reports as its own.
    private let url: URL
    private let receiver: Receiver
    private let promise: EventLoopPromise<Receiver.Outcome>
    private let state: NIOLoopBoundBox<LoopState>

    typealias StateMachine = DedicatedExchangeStateMachine

    private struct LoopState {
        var machine = StateMachine()
        var channel: Channel?
        /// The request, while it waits for the TLS handshake and the pinned key's check.
        var waitingForHandshake: DedicatedRequest?
        var handshakeCompleted = false
    }

    /// The outcome: the receiver's, or the failure that ended the exchange.
    var futureResult: EventLoopFuture<Receiver.Outcome> { promise.futureResult }

    private init(url: URL, eventLoop: EventLoop, receiver: Receiver) {
        self.url = url
        self.eventLoop = eventLoop
        self.receiver = receiver
        self.promise = eventLoop.makePromise(of: Receiver.Outcome.self)
        self.state = NIOLoopBoundBox.makeBoxSendingValue(LoopState(), eventLoop: eventLoop)
    }

    /// Connects to the request's peer and sends `request`, reporting to `receiver`.
    ///
    /// - Parameters:
    ///   - decompression: the client's setting, applied as AsyncHTTPClient applies it.
    ///   - connectTimeout: how long connecting may take; NIO's default when `nil`.
    ///   - deadline: when the whole exchange must have ended; it fails with AsyncHTTPClient's
    ///     `deadlineExceeded` then, as a task of its does.
    static func start(
        _ request: DedicatedRequest,
        receiver: Receiver,
        eventLoop: EventLoop,
        decompression: HTTPClient.Decompression,
        connectTimeout: TimeAmount?,
        deadline: NIODeadline?
    ) -> DedicatedExchange {
        let exchange = DedicatedExchange(url: request.url, eventLoop: eventLoop, receiver: receiver)
        if let deadline {
            let timer = eventLoop.scheduleTask(deadline: deadline) {
                exchange.fail(reason: HTTPClientError.deadlineExceeded)
            }
            exchange.futureResult.whenComplete { _ in timer.cancel() }
        }
        let tls = request.peer.tls
        var bootstrap = ClientBootstrap(group: eventLoop)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let tls {
                        let handler = try NIOSSLClientHandler(context: tls.context, serverHostname: tls.serverHostname)
                        try channel.pipeline.syncOperations.addHandler(handler)
                    }
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
        let address = request.peer.address
        bootstrap.connect(host: address.host, port: address.port).whenComplete { result in
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

    private func connected(_ channel: Channel, request: DedicatedRequest) {
        guard !state.value.machine.hasEnded else {
            channel.close(promise: nil)
            return
        }
        state.value.channel = channel
        if request.peer.tls?.check != nil {
            state.value.waitingForHandshake = request
            if state.value.handshakeCompleted {
                checkPeer()
            }
            return
        }
        send(request, on: channel)
    }

    /// The TLS handshake is done; a pinned key is checked before anything is sent.
    func handshakeCompleted() {
        state.value.handshakeCompleted = true
        if state.value.waitingForHandshake != nil {
            checkPeer()
        }
    }

    private func checkPeer() {
        guard let request = state.value.waitingForHandshake, let channel = state.value.channel,
            let check = request.peer.tls?.check
        else { return }
        state.value.waitingForHandshake = nil
        check(channel).hop(to: eventLoop).whenComplete { result in
            switch result {
            case .success:
                self.send(request, on: channel)
            case .failure(let error):
                self.perform(self.state.value.machine.connectionFailed(error))
            }
        }
    }

    private func send(_ request: DedicatedRequest, on channel: Channel) {
        guard !state.value.machine.hasEnded else { return }
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

    func received(_ part: HTTPClientResponsePart) {
        switch part {
        case .head(let head):
            perform(state.value.machine.receivedHead(head))
        case .body(let buffer):
            perform(state.value.machine.receivedPart(buffer))
        case .end:
            perform(state.value.machine.receivedEnd())
        }
    }

    /// The connection failed or closed. A body cut short arrives as the decoder's
    /// `HTTPParserError`, a bad response, as from AsyncHTTPClient.
    func connectionFailed(_ error: Error) {
        perform(state.value.machine.connectionFailed(error))
    }

    func readRequested(_ read: () -> Void) {
        if case .read = state.value.machine.readRequested() {
            read()
        }
    }

    private func perform(_ action: StateMachine.Action) {
        switch action {
        case .none:
            break
        case .deliverHead(let head):
            receiver.visited(url)
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
