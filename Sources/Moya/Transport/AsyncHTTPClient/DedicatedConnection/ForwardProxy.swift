import AsyncHTTPClient

/// An HTTP proxy that plain-`http` requests are forwarded through in absolute form: the
/// `server` kind of AsyncHTTPClient's proxy settings (a SOCKS proxy keeps AsyncHTTPClient's
/// own route).
struct ForwardProxy: Sendable, Hashable {
    let host: String
    let port: Int
    /// The `Proxy-Authorization` value: sent to the proxy, never further.
    let authorization: String?

    /// The proxy `proxy` names, unless it is a SOCKS proxy.
    init?(_ proxy: HTTPClient.Configuration.Proxy?) {
        guard let proxy else { return nil }
        // AsyncHTTPClient keeps the kind internal; a SOCKS proxy equals the one made from its address.
        if proxy.authorization == nil, proxy == .socksServer(host: proxy.host, port: proxy.port) {
            return nil
        }
        self.host = proxy.host
        self.port = proxy.port
        self.authorization = proxy.authorization?.headerValue
    }
}
