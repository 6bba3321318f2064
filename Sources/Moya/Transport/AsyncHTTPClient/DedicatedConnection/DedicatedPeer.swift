import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOSSL

/// Where a dedicated exchange's connection goes.
enum DedicatedPeer: Sendable {
    /// An HTTP proxy a plain-`http` request is forwarded through, in absolute form.
    case proxy(ForwardProxy)
    /// The origin server itself; over TLS when `tls` is given.
    case origin(host: String, port: Int, tls: DedicatedTLS?)

    /// The address the connection is made to.
    var address: (host: String, port: Int) {
        switch self {
        case .proxy(let proxy): return (proxy.host, proxy.port)
        case .origin(let host, let port, _): return (host, port)
        }
    }

    /// The TLS the connection starts with, if any.
    var tls: DedicatedTLS? {
        guard case .origin(_, _, let tls) = self else { return nil }
        return tls
    }
}

/// TLS for a dedicated connection to an origin: the route's trust settings, and the check a
/// pinned public key adds once the handshake is done (`ServerTrustPolicy`).
struct DedicatedTLS: Sendable {
    let context: NIOSSLContext
    /// The name sent in SNI and verified against the certificate; `nil` for an IP address,
    /// as AsyncHTTPClient leaves it.
    let serverHostname: String?
    let check: (@Sendable (Channel) -> EventLoopFuture<Void>)?
}

/// A route's TLS settings for its dedicated connections, with the TLS context built the first
/// time one is needed (building it reads the trust roots, which a session that never streams
/// over `https` should not pay for).
final class DedicatedTLSSettings: Sendable {
    private let configuration: TLSConfiguration
    private let check: (@Sendable (Channel) -> EventLoopFuture<Void>)?
    private let context = NIOLockedValueBox<NIOSSLContext?>(nil)

    init(configuration: TLSConfiguration, check: (@Sendable (Channel) -> EventLoopFuture<Void>)?) {
        self.configuration = configuration
        self.check = check
    }

    /// TLS for a connection to `host`; `nil` when the context cannot be built from the
    /// settings (the request then goes through AsyncHTTPClient, which reports why).
    func tls(for host: String) -> DedicatedTLS? {
        let context = self.context.withLockedValue { context -> NIOSSLContext? in
            if let context { return context }
            context = try? NIOSSLContext(configuration: configuration)
            return context
        }
        guard let context else { return nil }
        let isAddress = (try? SocketAddress(ipAddress: host, port: 0)) != nil
        return DedicatedTLS(context: context, serverHostname: isAddress ? nil : host, check: check)
    }
}
