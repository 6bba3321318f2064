import AsyncHTTPClient
import Foundation
import NIOCore

/// The HTTP client a `MoyaProvider` sends its requests through: Moya's `session:` parameter.
///
/// A session holds the transport that carries requests (AsyncHTTPClient by default, see
/// `AsyncHTTPClientTransport`; any `Transport` of your own) and the settings every transport
/// shares: default headers, timeouts, the HTTP cache, cookies, the interceptor.
/// `Session.default` needs no set-up and is never shut down; a session you create owns its
/// transport, which shuts its client down when released (or earlier, with `shutdown()`), so it
/// never traps at deinit.
public final class Session: Sendable {
    /// The shared session used when a provider is given none.
    public static let `default` = Session()

    /// The session's configuration.
    public let configuration: Configuration

    /// What carries the session's requests.
    public let transport: any Transport

    /// The AsyncHTTPClient client requests go through: the transport's, when it is an
    /// `AsyncHTTPClientTransport`; else AsyncHTTPClient's shared client, which this session
    /// does not use.
    public var httpClient: HTTPClient {
        (transport as? AsyncHTTPClientTransport)?.httpClient ?? HTTPClient.shared
    }

    /// Adapts and retries the requests of every provider using this session.
    public let interceptor: RequestInterceptor?

    /// `transport`, able to hand streamed responses over at their head: itself when it can,
    /// else answering them whole. Worked out once, not per request.
    let streamTransport: any StreamTransport

    /// What the request lifecycle reads of the session, worked out once.
    let policy: Policy
    /// The state of the configuration's resilience policies; `nil` when none is set.
    let resilience: ResilienceGate?
    /// The state of the policies targets set for themselves (`RequestPolicies.resilience`).
    let targetGates: TargetGates

    /// `streamTransport` behind the session's cache and cookie storage: assembled once, since
    /// every request uses it unless its target sets a cache policy of its own.
    let networkTransport: any StreamTransport

    /// Whether the transport keeps cookies itself (URLSession does), so that the session's
    /// cookie decorator stays out of its way.
    let transportKeepsCookies: Bool

    /// Whether a request starts as soon as it is made: always `false`, as on the session Moya 15
    /// builds for its providers.
    ///
    /// The provider starts every request itself, once its plugins' `willSend` has run, so no
    /// request of this session ever waits for a `resume()`. Kept for code that reads it.
    public var startRequestsImmediately: Bool { false }

    /// Creates a session on the platform's default transport (`defaultTransport(for:)`), built
    /// from `configuration`.
    public convenience init(configuration: Configuration = Configuration(), interceptor: RequestInterceptor? = nil) {
        self.init(
            transport: Self.defaultTransport(for: configuration),
            configuration: configuration,
            interceptor: interceptor
        )
    }

    /// The transport `Session(configuration:)` uses: on Apple's platforms, `URLSessionTransport`,
    /// as Moya runs on URLSession there (the system's proxies and VPN, HTTP/3, its TLS
    /// evaluation and tooling), unless `configuration` asks for what only AsyncHTTPClient does
    /// (custom trust roots, pinned hosts, an explicit proxy); everywhere else,
    /// `AsyncHTTPClientTransport`.
    public static func defaultTransport(for configuration: Configuration) -> any Transport {
        #if canImport(Darwin)
        if configuration.tlsConfiguration == nil, configuration.serverTrustPolicies.isEmpty,
            configuration.asyncHTTPClient.proxy == nil
        {
            return URLSessionTransport(configuration: configuration)
        }
        #endif
        return AsyncHTTPClientTransport(configuration: configuration)
    }

    /// Creates a session over a client you own and shut down yourself.
    ///
    /// Only the session-level settings of `configuration` apply (default headers, per-request
    /// timeouts); the client keeps its own.
    public convenience init(
        httpClient: HTTPClient,
        configuration: Configuration = Configuration(),
        interceptor: RequestInterceptor? = nil
    ) {
        self.init(
            transport: AsyncHTTPClientTransport(httpClient: httpClient, configuration: configuration),
            configuration: configuration,
            interceptor: interceptor
        )
    }

    /// Creates a session whose requests `transport` carries.
    ///
    /// The session's settings that every transport shares apply on top of it: default headers
    /// (sent unless a request sets them), the whole-request timeout, the cache, cookies and
    /// the interceptor. What only one transport understands is that transport's own setting.
    ///
    /// ```swift
    /// let session = Session(transport: FixtureTransport(), configuration: .init(cookieStorage: nil))
    /// ```
    public init(
        transport: any Transport,
        configuration: Configuration = Configuration(),
        interceptor: RequestInterceptor? = nil
    ) {
        var streamTransport = (transport as? any StreamTransport) ?? WholeBodyStreams(base: transport)
        if let coalescing = configuration.resilience.coalescing {
            streamTransport = CoalescingTransport(base: streamTransport, settings: coalescing)
        }
        let keepsCookies = transport.keepsCookies
        self.configuration = configuration
        self.transport = transport
        self.streamTransport = streamTransport
        self.transportKeepsCookies = keepsCookies
        self.networkTransport = TransportAssembly.network(
            over: streamTransport,
            configuration: configuration,
            keepsCookies: keepsCookies
        )
        self.interceptor = interceptor
        self.policy = Policy(
            defaultHeaders: configuration.defaultHeaders,
            requestTimeout: configuration.requestTimeout.map(TimeAmount.init),
            hasLogger: configuration.logger != nil
        )
        self.resilience = ResilienceGate.make(configuration.resilience, logger: configuration.logger)
        self.targetGates = TargetGates(logger: configuration.logger)
        // The cache's own failures are warned about through this session's logger.
        configuration.cache?.failures.adopt(configuration.logger)
    }

    /// Shuts the session's transport down (`Transport.shutdown()`), failing requests still in
    /// flight: an `AsyncHTTPClientTransport` shuts down the clients it owns, a
    /// `URLSessionTransport` invalidates its URLSession; later requests through either fail
    /// with `MoyaClientError` `sessionShutDown`.
    public func shutdown() async throws {
        try await transport.shutdown()
    }

    /// The headers added to every request that does not set them itself.
    public var sessionHeaders: [String: String] {
        configuration.defaultHeaders
    }
}

extension Session {
    /// The few settings a request's lifecycle reads: a small value, so that the lifecycle never
    /// depends on the session or its transport (the provider assembles the transport).
    struct Policy: Sendable {
        /// Sent unless a request sets the same names; plugins' `RequestType` shows them.
        let defaultHeaders: [String: String]
        /// The whole-request timeout, fixed when a request first starts sending.
        let requestTimeout: TimeAmount?
        /// Whether a logger may read the request's context.
        let hasLogger: Bool
    }

}
