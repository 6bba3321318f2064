import AsyncHTTPClient
import Foundation
import NIOConcurrencyHelpers
import NIOCore

/// The transport that carries requests over AsyncHTTPClient: the default of a `Session` on
/// Linux and every other platform.
///
/// It reads the session's shared settings (timeouts, headers, redirects, TLS, trust policies)
/// and its own, `Session.Configuration.asyncHTTPClient` (connection pool, HTTP versions,
/// decompression, proxies). A transport you create owns its `HTTPClient` and shuts it down
/// when released (or earlier, with `shutdown()`); one made over a client you pass keeps that
/// client running.
///
/// ```swift
/// let session = Session(transport: AsyncHTTPClientTransport(configuration: configuration))
/// ```
public final class AsyncHTTPClientTransport: Transport, Sendable {
    /// The settings requests are sent with.
    public let configuration: Session.Configuration

    /// The client requests to hosts without a pinned policy go through.
    public let httpClient: HTTPClient

    private let ownsClient: Bool

    /// One client per pinned host, each enforcing that host's trust policy. Always owned.
    private let pinnedRoutes: [String: Route]

    /// The routes through the proxies the environment names, by proxy; empty without any.
    private let proxiedRoutes: [HTTPClient.Configuration.Proxy: Route]

    /// The route of requests to hosts without a pinned client.
    private let defaultRoute: Route

    /// Set by `shutdown()`, so that requests it cancels say why (see `transferError`).
    private let shutDownRequested = NIOLockedValueBox(false)

    /// The session's redirect settings, which the transport applies itself on the clients it
    /// built (`RedirectHops`), read once.
    let redirectRule: RedirectRule

    /// The headers added to every request that does not set them itself, checked once.
    let sessionHeaders: SessionHeaders

    /// The one timer of every transfer's idle watch.
    let idleSweep: IdleSweep

    /// The exchanges running on connections of their own, which `shutdown()` ends too.
    let dedicatedExchanges = DedicatedExchanges()

    /// A transport with its own `HTTPClient`, built from `configuration`.
    public init(configuration: Session.Configuration = Session.Configuration()) {
        self.configuration = configuration
        self.httpClient = HTTPClient(
            eventLoopGroupProvider: .singleton,
            configuration: Self.makeClientConfiguration(configuration, proxy: configuration.asyncHTTPClient.proxy)
        )
        self.ownsClient = true
        self.redirectRule = RedirectRule(configuration.redirectConfiguration)
        self.sessionHeaders = SessionHeaders(configuration.defaultHeaders)
        self.idleSweep = IdleSweep(eventLoop: httpClient.eventLoopGroup.next())
        self.defaultRoute = Route(
            client: httpClient,
            clientFollowsRedirects: false,
            proxies: (configuration.asyncHTTPClient.proxy, configuration.asyncHTTPClient.proxy),
            dedicatedTLS: Self.dedicatedTLS(configuration, pinnedHost: nil)
        )
        self.pinnedRoutes = Self.makePinnedRoutes(configuration)
        self.proxiedRoutes = Self.makeProxiedRoutes(configuration)
    }

    /// A transport over a client you own and shut down yourself.
    ///
    /// Only the request-level settings of `configuration` apply (default headers, per-request
    /// timeouts, trust policies); the client keeps its own, and its own proxy: the
    /// environment's are not applied to it.
    public init(httpClient: HTTPClient, configuration: Session.Configuration = Session.Configuration()) {
        self.configuration = configuration
        self.httpClient = httpClient
        self.ownsClient = false
        self.redirectRule = RedirectRule(configuration.redirectConfiguration)
        self.sessionHeaders = SessionHeaders(configuration.defaultHeaders)
        self.idleSweep = IdleSweep(eventLoop: httpClient.eventLoopGroup.next())
        self.defaultRoute = Route(
            client: httpClient,
            clientFollowsRedirects: true,
            proxies: (nil, nil),
            dedicatedTLS: nil
        )
        self.pinnedRoutes = Self.makePinnedRoutes(configuration)
        self.proxiedRoutes = [:]
    }

    private static func makePinnedRoutes(_ configuration: Session.Configuration) -> [String: Route] {
        let own = configuration.asyncHTTPClient
        var routes: [String: Route] = [:]
        for host in configuration.serverTrustPolicies.keys {
            let secureProxy = own.proxy ?? own.proxyEnvironment?.proxy(for: Self.url("https", host))
            let client = HTTPClient(
                eventLoopGroupProvider: .singleton,
                configuration: Self.makeClientConfiguration(configuration, pinnedHost: host, proxy: secureProxy)
            )
            routes[host] = Route(
                client: client,
                clientFollowsRedirects: false,
                proxies: (own.proxy ?? own.proxyEnvironment?.proxy(for: Self.url("http", host)), secureProxy),
                dedicatedTLS: Self.dedicatedTLS(configuration, pinnedHost: host)
            )
        }
        return routes
    }

    /// One client per proxy the environment names, when the configuration names none itself:
    /// AsyncHTTPClient takes its proxy per client, and `no_proxy` hosts keep the direct one.
    private static func makeProxiedRoutes(
        _ configuration: Session.Configuration
    ) -> [HTTPClient.Configuration.Proxy: Route] {
        let own = configuration.asyncHTTPClient
        guard own.proxy == nil, let environment = own.proxyEnvironment else { return [:] }
        var routes: [HTTPClient.Configuration.Proxy: Route] = [:]
        for proxy in Set([environment.http, environment.https].compactMap { $0 }) {
            let client = HTTPClient(
                eventLoopGroupProvider: .singleton,
                configuration: Self.makeClientConfiguration(configuration, proxy: proxy)
            )
            routes[proxy] = Route(
                client: client,
                clientFollowsRedirects: false,
                proxies: (proxy, proxy),
                dedicatedTLS: Self.dedicatedTLS(configuration, pinnedHost: nil)
            )
        }
        return routes
    }

    private static func url(_ scheme: String, _ host: String) -> URL {
        URL(string: "\(scheme)://\(host)/") ?? URL(fileURLWithPath: "/")
    }

    /// A client, how the uploads sent through it choose their event loop, and who follows its
    /// redirects.
    struct Route: Sendable {
        let client: HTTPClient
        let uploadLoops: UploadLoopPreference
        /// Whether the client follows redirects itself, as one you give the transport does with
        /// its own settings; the clients the transport builds leave them to it.
        let clientFollowsRedirects: Bool
        /// The proxies of `http` and `https` URLs on this route.
        let proxies: (http: HTTPClient.Configuration.Proxy?, https: HTTPClient.Configuration.Proxy?)
        /// The TLS settings of the route's dedicated connections; `nil` on a client the
        /// transport was given, which carries every request itself, with its own settings.
        let dedicatedTLS: DedicatedTLSSettings?

        init(
            client: HTTPClient,
            clientFollowsRedirects: Bool,
            proxies: (http: HTTPClient.Configuration.Proxy?, https: HTTPClient.Configuration.Proxy?),
            dedicatedTLS: DedicatedTLSSettings?
        ) {
            self.client = client
            self.uploadLoops = UploadLoopPreference(group: client.eventLoopGroup)
            self.clientFollowsRedirects = clientFollowsRedirects
            self.proxies = proxies
            self.dedicatedTLS = dedicatedTLS
        }

        /// The URL redirects of a response to `request` are resolved from, when the transport
        /// follows this route's redirects itself; `nil` when the client does.
        func redirectBase(for request: URLRequest, hops: RedirectHops?) -> URL? {
            clientFollowsRedirects || hops == nil ? nil : request.url
        }
    }

    /// The route to `url`'s host: its pinned client, the only one that may talk to it, else
    /// the client of the proxy the environment names for it, else the default one.
    func route(for url: URL) -> Route {
        if !pinnedRoutes.isEmpty, let host = url.host?.lowercased(), let pinned = pinnedRoutes[host] {
            return pinned
        }
        if !proxiedRoutes.isEmpty, let proxy = configuration.asyncHTTPClient.proxyEnvironment?.proxy(for: url),
            let proxied = proxiedRoutes[proxy]
        {
            return proxied
        }
        return defaultRoute
    }

    /// The connect timeout `client` was built with, when the transport built it: a client it
    /// was given keeps its own settings, which AsyncHTTPClient does not expose.
    func connectTimeout(of client: HTTPClient) -> TimeAmount? {
        ownsClient || client !== httpClient ? TimeAmount(configuration.connectTimeout) : nil
    }

    deinit {
        // A client keeps itself alive until its shutdown completes.
        if ownsClient {
            httpClient.shutdown { _ in }
        }
        for route in pinnedRoutes.values {
            route.client.shutdown { _ in }
        }
        for route in proxiedRoutes.values {
            route.client.shutdown { _ in }
        }
    }

    /// Shuts the transport's own clients down, failing requests still in flight.
    public func shutdown() async throws {
        shutDownRequested.withLockedValue { $0 = true }
        dedicatedExchanges.shutDown()
        for route in pinnedRoutes.values {
            try await route.client.shutdown()
        }
        for route in proxiedRoutes.values {
            try await route.client.shutdown()
        }
        if ownsClient {
            try await httpClient.shutdown()
        }
    }

    /// The error a failed transfer reports: a shut-down client's refusal says so, and other
    /// failures become what URLSession reports for them (see `URLErrorMapping`).
    ///
    /// A request in flight when `shutdown()` ran is cancelled by the client. It stays the
    /// `NSURLErrorCancelled` URLSession reports for the tasks of an invalidated session, so code
    /// checking the code keeps working, but its description says what cancelled it.
    func transferError(_ error: Error, url: URL?) -> Error {
        if let clientError = error as? HTTPClientError {
            if clientError == .alreadyShutdown {
                return MoyaClientError.sessionShutDown(url: url)
            }
            if clientError == .cancelled, shutDownRequested.withLockedValue({ $0 }) {
                var userInfo: [String: Any] = [
                    NSLocalizedDescriptionKey: "cancelled: the request's session was shut down while it was in flight.",
                    NSUnderlyingErrorKey: MoyaClientError.sessionShutDown(url: url),
                ]
                userInfo[NSURLErrorFailingURLErrorKey] = url
                return NSError(domain: NSURLErrorDomain, code: NSURLErrorCancelled, userInfo: userInfo)
            }
        }
        return URLErrorMapping.map(error, url: url)
    }
}
