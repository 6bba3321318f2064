import AsyncHTTPClient
import Foundation

/// The proxies a process's environment names, read as curl reads them: `http_proxy` for
/// `http` URLs, `https_proxy` (or `HTTPS_PROXY`) for `https` ones, `all_proxy` (or
/// `ALL_PROXY`) for both when those are not set, and `no_proxy` (or `NO_PROXY`) for the hosts
/// to reach directly. As curl does, the upper-case `HTTP_PROXY` is not read: a CGI program's
/// environment carries a request's `Proxy` header under that name ("httpoxy").
///
/// The AsyncHTTPClient transport uses it when its configuration names no `proxy` (see
/// `AsyncHTTPClientTransport.Configuration.proxyEnvironment`), so a program behind a company
/// proxy works as `URLSession` and curl do on Linux.
///
/// A value is `http://[user:password@]host[:port]` (the scheme may be left out; the port is
/// 1080 by default, as for curl), or `socks5://host[:port]`. A value this cannot use (another
/// scheme, no host) is ignored. `no_proxy` lists host names, each matching itself and its
/// subdomains (`example.com` and `.example.com` both match `api.example.com`), or `*` for all.
public struct ProxyEnvironment: Sendable, Hashable {
    /// The proxy for `http` URLs.
    public var http: HTTPClient.Configuration.Proxy?
    /// The proxy for `https` URLs, reached with `CONNECT`.
    public var https: HTTPClient.Configuration.Proxy?
    /// The hosts reached directly, lower-cased, without leading dots; `*` for all.
    public var noProxy: [String]

    /// Creates the settings by hand: for tests, or for a program that reads its own.
    public init(
        http: HTTPClient.Configuration.Proxy? = nil,
        https: HTTPClient.Configuration.Proxy? = nil,
        noProxy: [String] = []
    ) {
        self.http = http
        self.https = https
        self.noProxy = noProxy.map(Self.normalizedHost).filter { !$0.isEmpty }
    }

    /// The settings `environment` names: the process's own by default.
    public static func fromEnvironment(
        _ environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> ProxyEnvironment {
        func value(_ names: String...) -> String? {
            names.lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
        }
        let all = value("all_proxy", "ALL_PROXY").flatMap(proxy(from:))
        return ProxyEnvironment(
            http: value("http_proxy").flatMap(proxy(from:)) ?? all,
            https: value("https_proxy", "HTTPS_PROXY").flatMap(proxy(from:)) ?? all,
            noProxy: (value("no_proxy", "NO_PROXY") ?? "").split(separator: ",").map(String.init)
        )
    }

    /// Whether it names no proxy at all.
    public var isEmpty: Bool { http == nil && https == nil }

    /// The proxy for a request to `url`, or `nil` to go directly.
    public func proxy(for url: URL) -> HTTPClient.Configuration.Proxy? {
        let proxy = url.scheme?.lowercased() == "https" ? https : http
        guard let proxy, let host = url.host.map(Self.normalizedHost) else { return nil }
        let bypassed = noProxy.contains { entry in
            entry == "*" || host == entry || host.hasSuffix("." + entry)
        }
        return bypassed ? nil : proxy
    }

    /// A proxy from one variable's value, or `nil` when it is not one this can use.
    static func proxy(from value: String) -> HTTPClient.Configuration.Proxy? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        let withScheme = trimmed.contains("://") ? trimmed : "http://" + trimmed
        guard let components = URLComponents(string: withScheme), let host = components.host, !host.isEmpty
        else { return nil }
        let port = components.port ?? 1080
        switch components.scheme?.lowercased() {
        case "http":
            let authorization = components.user.map { user in
                HTTPClient.Authorization.basic(
                    username: user.removingPercentEncoding ?? user,
                    password: components.password.map { $0.removingPercentEncoding ?? $0 } ?? ""
                )
            }
            return .server(host: host, port: port, authorization: authorization)
        case "socks5", "socks5h":
            return .socksServer(host: host, port: port)
        default:
            return nil
        }
    }

    private static func normalizedHost(_ host: String) -> String {
        var host = host.trimmingCharacters(in: .whitespaces).lowercased()
        while host.hasPrefix(".") { host.removeFirst() }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return host
    }
}
