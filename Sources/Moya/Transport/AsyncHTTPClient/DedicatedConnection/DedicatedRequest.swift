import AsyncHTTPClient
import Foundation
import NIOHTTP1

/// What a dedicated exchange sends: the request head (in absolute form to a proxy, in origin
/// form to the server) and the body.
struct DedicatedRequest {
    let peer: DedicatedPeer
    let url: URL
    let head: HTTPRequestHead
    let body: HTTPClient.Body?

    /// `request` as sent to `peer`, with the headers AsyncHTTPClient would add itself: `Host`,
    /// and the body's framing; through a proxy, its credentials.
    init(_ request: HTTPClient.Request, to peer: DedicatedPeer) {
        let url = request.url
        var headers = HTTPHeaders()
        if !request.headers.contains(name: "Host") {
            headers.add(name: "Host", value: Self.authority(of: url))
        }
        headers.add(contentsOf: request.headers)
        let target: String
        switch peer {
        case .proxy(let proxy):
            target = Self.absoluteForm(of: url)
            headers.remove(name: "Proxy-Authorization")
            if let authorization = proxy.authorization {
                headers.add(name: "Proxy-Authorization", value: authorization)
            }
        case .origin:
            target = Self.originForm(of: url)
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
        self.peer = peer
        self.url = url
        self.head = HTTPRequestHead(version: .http1_1, method: request.method, uri: target, headers: headers)
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

    /// The path and query, `/` for an empty path.
    static func originForm(of url: URL) -> String {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return "/" }
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        return components.percentEncodedQuery.map { path + "?" + $0 } ?? path
    }

    /// `host[:port]`, the port left out when it is the scheme's default.
    static func authority(of url: URL) -> String {
        let host = url.host ?? ""
        let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        let defaultPort = url.scheme?.lowercased() == "https" ? 443 : 80
        guard let port = url.port, port != defaultPort else { return bracketed }
        return "\(bracketed):\(port)"
    }
}
