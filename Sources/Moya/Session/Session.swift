import AsyncHTTPClient
import Foundation
import NIOConcurrencyHelpers
import NIOCore

/// The HTTP client a `MoyaProvider` sends its requests through: Moya's `session:` parameter.
///
/// A session wraps an AsyncHTTPClient `HTTPClient` and its configuration. `Session.default`
/// needs no set-up and is never shut down; a session you create owns its client and shuts it
/// down when released (or earlier, with `shutdown()`), so it never traps at deinit.
public final class Session: Sendable {
    /// The shared session used when a provider is given none.
    public static let `default` = Session()

    /// The session's configuration.
    public let configuration: Configuration

    /// The client requests go through.
    public let httpClient: HTTPClient

    /// Adapts and retries the requests of every provider using this session.
    public let interceptor: RequestInterceptor?

    /// Whether a request starts as soon as it is made: always `false`, as on the session Moya 15
    /// builds for its providers.
    ///
    /// The provider starts every request itself, once its plugins' `willSend` has run, so no
    /// request of this session ever waits for a `resume()`. Kept for code that reads it.
    public var startRequestsImmediately: Bool { false }

    private let ownsClient: Bool

    /// One client per pinned host, each enforcing that host's trust policy. Always owned.
    private let pinnedRoutes: [String: Route]

    /// The routes through the proxies the environment names, by proxy; empty without any.
    private let proxiedRoutes: [HTTPClient.Configuration.Proxy: Route]

    /// The route of requests to hosts without a pinned client.
    private let defaultRoute: Route

    /// Set by `shutdown()`, so that requests it cancels say why (see `transferError`).
    private let shutDownRequested = NIOLockedValueBox(false)

    /// The platform's URLSession, which requests go through instead of `httpClient` when the
    /// session was made with `usesURLSession`; `nil` for AsyncHTTPClient.
    let urlSessionTransport: URLSessionTransport?

    /// Creates a session with its own `HTTPClient`, built from `configuration`.
    public convenience init(configuration: Configuration = Configuration(), interceptor: RequestInterceptor? = nil) {
        self.init(configuration: configuration, interceptor: interceptor, usesURLSession: false)
    }

    /// Creates a session whose requests go through the platform's URLSession when
    /// `usesURLSession` is `true`, else through its own `HTTPClient`.
    init(configuration: Configuration, interceptor: RequestInterceptor?, usesURLSession: Bool) {
        self.urlSessionTransport = usesURLSession ? URLSessionTransport(configuration: configuration) : nil
        self.configuration = configuration
        self.interceptor = interceptor
        self.httpClient = HTTPClient(
            eventLoopGroupProvider: .singleton,
            configuration: configuration.makeClientConfiguration(proxy: configuration.proxy)
        )
        self.ownsClient = true
        self.defaultRoute = Route(client: httpClient)
        self.pinnedRoutes = Self.makePinnedRoutes(configuration)
        self.proxiedRoutes = Self.makeProxiedRoutes(configuration)
        // The cache's own failures are warned about through this session's logger.
        configuration.cache?.failures.adopt(configuration.logger)
    }

    /// Creates a session over a client you own and shut down yourself.
    ///
    /// Only the session-level settings of `configuration` apply (default headers, per-request
    /// timeouts); the client keeps its own.
    public init(
        httpClient: HTTPClient,
        configuration: Configuration = Configuration(),
        interceptor: RequestInterceptor? = nil
    ) {
        self.configuration = configuration
        self.interceptor = interceptor
        self.httpClient = httpClient
        self.urlSessionTransport = nil
        self.ownsClient = false
        self.defaultRoute = Route(client: httpClient)
        self.pinnedRoutes = Self.makePinnedRoutes(configuration)
        // The client given keeps its own proxy: the environment's are not applied to it.
        self.proxiedRoutes = [:]
        // The cache's own failures are warned about through this session's logger.
        configuration.cache?.failures.adopt(configuration.logger)
    }

    private static func makePinnedRoutes(_ configuration: Configuration) -> [String: Route] {
        var routes: [String: Route] = [:]
        for host in configuration.serverTrustPolicies.keys {
            let client = HTTPClient(
                eventLoopGroupProvider: .singleton,
                configuration: configuration.makeClientConfiguration(
                    pinnedHost: host,
                    proxy: configuration.proxy ?? configuration.proxyEnvironment?.proxy(for: Self.httpsURL(host))
                )
            )
            routes[host] = Route(client: client)
        }
        return routes
    }

    /// One client per proxy the environment names, when the configuration names none itself:
    /// AsyncHTTPClient takes its proxy per client, and `no_proxy` hosts keep the direct one.
    private static func makeProxiedRoutes(_ configuration: Configuration) -> [HTTPClient.Configuration.Proxy: Route] {
        guard configuration.proxy == nil, let environment = configuration.proxyEnvironment else { return [:] }
        var routes: [HTTPClient.Configuration.Proxy: Route] = [:]
        for proxy in Set([environment.http, environment.https].compactMap { $0 }) {
            let client = HTTPClient(
                eventLoopGroupProvider: .singleton,
                configuration: configuration.makeClientConfiguration(proxy: proxy)
            )
            routes[proxy] = Route(client: client)
        }
        return routes
    }

    private static func httpsURL(_ host: String) -> URL {
        URL(string: "https://\(host)/") ?? URL(fileURLWithPath: "/")
    }

    /// A client, and how the uploads sent through it choose their event loop.
    struct Route: Sendable {
        let client: HTTPClient
        let uploadLoops: UploadLoopPreference

        init(client: HTTPClient) {
            self.client = client
            self.uploadLoops = UploadLoopPreference(group: client.eventLoopGroup)
        }
    }

    /// The route to `url`'s host: its pinned client, the only one that may talk to it, else
    /// the client of the proxy the environment names for it, else the session's.
    func route(for url: URL) -> Route {
        if !pinnedRoutes.isEmpty, let host = url.host?.lowercased(), let pinned = pinnedRoutes[host] {
            return pinned
        }
        if !proxiedRoutes.isEmpty, let proxy = configuration.proxyEnvironment?.proxy(for: url),
            let proxied = proxiedRoutes[proxy]
        {
            return proxied
        }
        return defaultRoute
    }

    /// The connect timeout `client` was built with, when the session built it: a client it was
    /// given keeps its own settings, which AsyncHTTPClient does not expose.
    func connectTimeout(of client: HTTPClient) -> TimeAmount? {
        ownsClient || client !== httpClient ? configuration.connectTimeout : nil
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

    /// Shuts the session's own client down, failing requests still in flight.
    public func shutdown() async throws {
        shutDownRequested.withLockedValue { $0 = true }
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

    /// The headers added to every request that does not set them itself.
    public var sessionHeaders: [String: String] {
        configuration.defaultHeaders
    }
}

extension Session {
    /// The error a request fails with, under `MoyaError.underlying`, when the session's client
    /// has been shut down (by `shutdown()`, or by its owner for a client you passed in).
    ///
    /// AsyncHTTPClient's own error for this reads `HTTPClientError.alreadyShutdown`, which says
    /// nothing about which object to look at; this one says so and names the request.
    public struct ShutDownError: LocalizedError, CustomStringConvertible {
        /// The URL of the request that was not sent.
        public let url: URL?

        /// Creates the error for the request to `url`.
        public init(url: URL?) {
            self.url = url
        }

        /// Says that the session was shut down, and which request it refused.
        public var errorDescription: String? {
            let request = url.map { " to \($0.absoluteString)" } ?? ""
            return "The request\(request) was not sent: its session was shut down (Session.shutdown(), "
                + "or the shutdown of the HTTPClient it was given). Create a new Session to send requests."
        }

        /// The same text as `errorDescription`, for `print(error)`.
        public var description: String {
            errorDescription ?? "The session was shut down."
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
                return ShutDownError(url: url)
            }
            if clientError == .cancelled, shutDownRequested.withLockedValue({ $0 }) {
                var userInfo: [String: Any] = [
                    NSLocalizedDescriptionKey: "cancelled: the request's session was shut down while it was in flight.",
                    NSUnderlyingErrorKey: ShutDownError(url: url),
                ]
                userInfo[NSURLErrorFailingURLErrorKey] = url
                return NSError(domain: NSURLErrorDomain, code: NSURLErrorCancelled, userInfo: userInfo)
            }
        }
        return URLErrorMapping.map(error, url: url)
    }
}
