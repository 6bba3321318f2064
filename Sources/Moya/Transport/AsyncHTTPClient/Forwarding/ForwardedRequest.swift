import AsyncHTTPClient
import Foundation
import NIOHTTP1

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

/// What a forwarded exchange sends: the request head in absolute form, addressed to the
/// proxy, and the body.
struct ForwardedRequest {
    let proxy: ForwardProxy
    let head: HTTPRequestHead
    let body: HTTPClient.Body?

    /// `request` (a plain-`http` one) as sent to `proxy`, with the headers AsyncHTTPClient
    /// would add itself: `Host`, and the body's framing.
    init(_ request: HTTPClient.Request, through proxy: ForwardProxy) {
        let url = request.url
        var headers = HTTPHeaders()
        if !request.headers.contains(name: "Host") {
            headers.add(name: "Host", value: Self.authority(of: url))
        }
        headers.add(contentsOf: request.headers)
        headers.remove(name: "Proxy-Authorization")
        if let authorization = proxy.authorization {
            headers.add(name: "Proxy-Authorization", value: authorization)
        }
        if let body = request.body {
            if let length = body.contentLength {
                headers.replaceOrAdd(name: "Content-Length", value: String(length))
                headers.remove(name: "Transfer-Encoding")
            } else if !headers.contains(name: "Content-Length") {
                headers.replaceOrAdd(name: "Transfer-Encoding", value: "chunked")
            }
        } else if [.POST, .PUT, .PATCH].contains(request.method), !headers.contains(name: "Content-Length") {
            headers.add(name: "Content-Length", value: "0")
        }
        self.proxy = proxy
        self.head = HTTPRequestHead(
            version: .http1_1,
            method: request.method,
            uri: Self.absoluteForm(of: url),
            headers: headers
        )
        self.body = request.body
    }

    /// The URL without what never goes on the wire (its user and password, its fragment),
    /// with `/` for an empty path.
    static func absoluteForm(of url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return url.absoluteString }
        components.user = nil
        components.password = nil
        components.fragment = nil
        if components.percentEncodedPath.isEmpty {
            components.percentEncodedPath = "/"
        }
        return components.string ?? url.absoluteString
    }

    /// `host[:port]`, the port left out when it is `http`'s default.
    static func authority(of url: URL) -> String {
        let host = url.host ?? ""
        let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        guard let port = url.port, port != 80 else { return bracketed }
        return "\(bracketed):\(port)"
    }
}
