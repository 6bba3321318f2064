import AsyncHTTPClient
import Foundation
import NIOSSL

extension AsyncHTTPClientTransport.Route {
    /// The peer of a dedicated connection for a request to `url`, when the transport carries
    /// it itself (`DedicatedExchange`) rather than the client's pool: a plain-`http` request
    /// through an HTTP proxy, always; a streamed request (`streamed`) to a server reached
    /// without a proxy, over TLS for `https`. `nil` for everything else: through a SOCKS
    /// proxy, `https` through a proxy (AsyncHTTPClient's tunnel), and every request on a
    /// client the transport was given.
    func dedicatedPeer(for url: URL, streamed: Bool) -> DedicatedPeer? {
        // Most requests are neither streamed nor proxied: they read nothing of the URL here.
        guard let dedicatedTLS, streamed || proxies.http != nil,
            let host = url.host.map(Self.unbracketed), !host.isEmpty
        else { return nil }
        switch url.scheme?.lowercased() {
        case "http":
            if let proxy = proxies.http {
                return ForwardProxy(proxy).map(DedicatedPeer.proxy)
            }
            return streamed ? .origin(host: host, port: url.port ?? 80, tls: nil) : nil
        case "https":
            guard streamed, proxies.https == nil, let tls = dedicatedTLS.tls(for: host) else { return nil }
            return .origin(host: host, port: url.port ?? 443, tls: tls)
        default:
            return nil
        }
    }

    /// An IPv6 address as a URL writes it, without its brackets.
    private static func unbracketed(_ host: String) -> String {
        host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
    }
}

extension AsyncHTTPClientTransport {
    /// The TLS settings of dedicated connections on a route: the session's, or for a pinned
    /// host its trust policy's, as the route's client has them.
    static func dedicatedTLS(_ configuration: Session.Configuration, pinnedHost host: String?) -> DedicatedTLSSettings {
        let trust = trust(configuration, pinnedHost: host)
        return DedicatedTLSSettings(
            configuration: trust.tlsConfiguration ?? .makeClientConfiguration(),
            check: trust.connectionCheck
        )
    }
}
