import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOSSL

// The AsyncHTTPClient transport's own settings used to sit among the session's. They moved to
// `AsyncHTTPClientTransport.Configuration` (`Session.Configuration.asyncHTTPClient`); these
// spellings keep configurations written before compiling and meaning what they meant, with a
// warning that names the new place.

extension Session.Configuration {
    /// Creates a configuration with the AsyncHTTPClient transport's settings among the session's.
    @available(
        *,
        deprecated,
        message: "pass decompression, httpVersion, proxy, proxyEnvironment and connectionPool in asyncHTTPClient:"
    )
    public init(
        connectTimeout: Duration = Defaults.connectTimeout,
        readTimeout: Duration = Defaults.readTimeout,
        requestTimeout: Duration? = Defaults.requestTimeout,
        defaultHeaders: [String: String] = Session.Configuration.defaultHeaders,
        redirectConfiguration: RedirectPolicy = Defaults.redirects,
        decompression: HTTPClient.Decompression = AsyncHTTPClientTransport.Configuration.defaultDecompression,
        httpVersion: HTTPClient.Configuration.HTTPVersion = .automatic,
        proxy: HTTPClient.Configuration.Proxy? = nil,
        proxyEnvironment: ProxyEnvironment? = .fromEnvironment(),
        connectionPool: HTTPClient.Configuration.ConnectionPool = AsyncHTTPClientTransport.Configuration
            .defaultConnectionPool,
        tlsConfiguration: TLSConfiguration? = nil,
        serverTrustPolicies: [String: ServerTrustPolicy] = [:],
        temporaryDirectory: URL? = nil,
        logger: Logger? = nil,
        cache: HTTPCache? = nil,
        cookieStorage: HTTPCookieStorage? = .shared
    ) {
        self.init(
            connectTimeout: connectTimeout,
            readTimeout: readTimeout,
            requestTimeout: requestTimeout,
            defaultHeaders: defaultHeaders,
            redirectConfiguration: redirectConfiguration,
            tlsConfiguration: tlsConfiguration,
            serverTrustPolicies: serverTrustPolicies,
            temporaryDirectory: temporaryDirectory,
            logger: logger,
            cache: cache,
            cookieStorage: cookieStorage,
            asyncHTTPClient: AsyncHTTPClientTransport.Configuration(
                decompression: decompression,
                httpVersion: httpVersion,
                proxy: proxy,
                proxyEnvironment: proxyEnvironment
            )
        )
        // The one place that maps the pool to URLSession's limit too (see below).
        self.connectionPool = connectionPool
    }

    /// `asyncHTTPClient.decompression`.
    @available(*, deprecated, renamed: "asyncHTTPClient.decompression")
    public var decompression: HTTPClient.Decompression {
        get { asyncHTTPClient.decompression }
        set { asyncHTTPClient.decompression = newValue }
    }

    /// `asyncHTTPClient.httpVersion`.
    @available(*, deprecated, renamed: "asyncHTTPClient.httpVersion")
    public var httpVersion: HTTPClient.Configuration.HTTPVersion {
        get { asyncHTTPClient.httpVersion }
        set { asyncHTTPClient.httpVersion = newValue }
    }

    /// `asyncHTTPClient.proxy`.
    @available(*, deprecated, renamed: "asyncHTTPClient.proxy")
    public var proxy: HTTPClient.Configuration.Proxy? {
        get { asyncHTTPClient.proxy }
        set { asyncHTTPClient.proxy = newValue }
    }

    /// `asyncHTTPClient.proxyEnvironment`.
    @available(*, deprecated, renamed: "asyncHTTPClient.proxyEnvironment")
    public var proxyEnvironment: ProxyEnvironment? {
        get { asyncHTTPClient.proxyEnvironment }
        set { asyncHTTPClient.proxyEnvironment = newValue }
    }

    /// `asyncHTTPClient.connectionPool`; its per-host limit also sets
    /// `urlSession.maximumConnectionsPerHost`, which the URLSession transport read from it.
    @available(
        *,
        deprecated,
        message: "use asyncHTTPClient.connectionPool, and urlSession.maximumConnectionsPerHost for URLSession"
    )
    public var connectionPool: HTTPClient.Configuration.ConnectionPool {
        get { asyncHTTPClient.connectionPool }
        set {
            asyncHTTPClient.connectionPool = newValue
            // The URLSession transport read its connection limit from the pool before.
            urlSession.maximumConnectionsPerHost = newValue.concurrentHTTP1ConnectionsPerHostSoftLimit
        }
    }

    /// `AsyncHTTPClientTransport.Configuration.defaultConnectionPool`.
    @available(*, deprecated, renamed: "AsyncHTTPClientTransport.Configuration.defaultConnectionPool")
    public static var defaultConnectionPool: HTTPClient.Configuration.ConnectionPool {
        AsyncHTTPClientTransport.Configuration.defaultConnectionPool
    }

    /// `AsyncHTTPClientTransport.Configuration.defaultDecompression`.
    @available(*, deprecated, renamed: "AsyncHTTPClientTransport.Configuration.defaultDecompression")
    public static var defaultDecompression: HTTPClient.Decompression {
        AsyncHTTPClientTransport.Configuration.defaultDecompression
    }
}
