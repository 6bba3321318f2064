import AsyncHTTPClient
import Foundation
import NIOCore

extension AsyncHTTPClientTransport {
    /// What only the AsyncHTTPClient transport understands: its connection pool, HTTP versions,
    /// decompression and proxies. The settings every transport shares (timeouts, headers,
    /// redirects, TLS trust, cookies, the cache) are the session's.
    ///
    /// A session's configuration carries one (`Session.Configuration.asyncHTTPClient`), which
    /// the transport is built with:
    ///
    /// ```swift
    /// var configuration = Session.Configuration()
    /// configuration.asyncHTTPClient.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 64
    /// configuration.asyncHTTPClient.httpVersion = .http1Only
    /// let session = Session(transport: AsyncHTTPClientTransport(configuration: configuration), configuration: configuration)
    /// ```
    public struct Configuration: Sendable {
        /// Whether compressed responses are decompressed. Default: on, with a ratio limit.
        public var decompression: HTTPClient.Decompression

        /// The HTTP versions used. Default: HTTP/2 when the server offers it over TLS.
        public var httpVersion: HTTPClient.Configuration.HTTPVersion

        /// The proxy every request goes through; `nil` (the default) to follow
        /// `proxyEnvironment`.
        public var proxy: HTTPClient.Configuration.Proxy?

        /// The proxies the environment names (`http_proxy`, `https_proxy`, `no_proxy`...),
        /// used per request when `proxy` is `nil`, as URLSession and curl use them on Linux:
        /// read from the process's environment by default. `nil` sends every request directly.
        /// A transport over an `HTTPClient` you give it keeps that client's own proxy.
        public var proxyEnvironment: ProxyEnvironment?

        /// Connection pool settings. By default a refused connection fails its request at
        /// once, as URLSession does, instead of retrying until the connect timeout.
        public var connectionPool: HTTPClient.Configuration.ConnectionPool

        /// Creates the transport's settings; the defaults are URLSession-like.
        public init(
            decompression: HTTPClient.Decompression = Configuration.defaultDecompression,
            httpVersion: HTTPClient.Configuration.HTTPVersion = .automatic,
            proxy: HTTPClient.Configuration.Proxy? = nil,
            proxyEnvironment: ProxyEnvironment? = .fromEnvironment(),
            connectionPool: HTTPClient.Configuration.ConnectionPool = Configuration.defaultConnectionPool
        ) {
            self.decompression = decompression
            self.httpVersion = httpVersion
            self.proxy = proxy
            // An environment naming no proxy is no environment: no route is built for it.
            self.proxyEnvironment = proxyEnvironment?.isEmpty == false ? proxyEnvironment : nil
            self.connectionPool = connectionPool
        }

        /// AsyncHTTPClient's pool with `Session.Configuration.defaultConnectionsPerHost`
        /// connections per host, failing requests at once when a connection cannot be made, as
        /// URLSession does.
        ///
        /// Requests beyond the limit wait for a connection for as long as their own timeouts
        /// allow (never just the connect timeout); to change the limit:
        ///
        /// ```swift
        /// var configuration = Session.Configuration()
        /// configuration.asyncHTTPClient.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 64
        /// let session = Session(configuration: configuration)
        /// ```
        public static var defaultConnectionPool: HTTPClient.Configuration.ConnectionPool {
            var pool = HTTPClient.Configuration.ConnectionPool()
            pool.retryConnectionEstablishment = false
            pool.concurrentHTTP1ConnectionsPerHostSoftLimit = Session.Configuration.defaultConnectionsPerHost
            return pool
        }

        /// Decompression on, refusing bodies that inflate more than 100 times (zip bombs).
        public static var defaultDecompression: HTTPClient.Decompression {
            .enabled(limit: .ratio(100))
        }
    }
}
