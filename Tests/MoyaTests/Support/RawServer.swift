import Foundation
import NIOCore
import NIOPosix

/// A TCP server on 127.0.0.1 that answers every connection with scripted raw bytes, for the
/// faults a well-behaved HTTP server cannot produce (garbage, short bodies, resets).
struct RawServer {
    enum Ending: Sendable {
        /// Close the connection normally after writing.
        case close
        /// Reset the connection (RST) after writing.
        case reset
        /// Keep the connection open and silent.
        case stall
    }

    let port: Int
    private let channel: Channel

    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Starts a server that, once it has read a request head, writes `response` and ends as
    /// `ending` says; `ended` is called once a connection's ending is done (for `.close`,
    /// once everything written was handed to the network and the connection closed).
    static func start(
        response: String,
        ending: Ending,
        ended: (@Sendable () -> Void)? = nil
    ) async throws -> RawServer {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let handler = ScriptedHandler(response: response, ending: ending, ended: ended)
                    try channel.pipeline.syncOperations.addHandler(handler)
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        return RawServer(port: channel.localAddress?.port ?? 0, channel: channel)
    }

    func stop() async {
        try? await channel.close()
    }
}

private final class ScriptedHandler: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    let response: String
    let ending: RawServer.Ending
    let ended: (@Sendable () -> Void)?

    init(response: String, ending: RawServer.Ending, ended: (@Sendable () -> Void)?) {
        self.response = response
        self.ending = ending
        self.ended = ended
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        guard String(buffer: buffer).contains("\r\n\r\n") else { return }
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: response)), promise: nil)
        switch ending {
        case .close:
            let ended = self.ended
            context.close().whenComplete { _ in ended?() }
        case .reset:
            // SO_LINGER with a zero timeout makes close() send RST instead of FIN.
            guard let socket = context.channel as? SocketOptionProvider else {
                context.close(promise: nil)
                return
            }
            let channel = context.channel
            socket.setSoLinger(linger(l_onoff: 1, l_linger: 0)).whenComplete { _ in
                channel.close(promise: nil)
            }
        case .stall:
            break
        }
    }
}
