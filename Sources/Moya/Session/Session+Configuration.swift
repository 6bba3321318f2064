import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOSSL
internal import Tracing

extension Session {
    /// How a session connects and what it sends by default.
    public struct Configuration: Sendable {
        /// The longest time to wait for a connection (TCP and TLS). Default: 10 seconds.
        public var connectTimeout: TimeAmount

        /// The longest time to wait for the next bytes of a response (head or body) when the
        /// request does not set its own `timeoutInterval`. Default: 60 seconds, as URLSession.
        public var readTimeout: TimeAmount

        /// The longest a whole request may take, response body included; `nil` for no limit.
        /// Default: 7 days, as URLSession's resource timeout.
        ///
        /// One deadline per request, fixed when it is first sent: retries, the answer to an
        /// authentication challenge and the waits between attempts count against it, and no
        /// retry starts once it has passed.
        public var requestTimeout: TimeAmount?

        /// Headers added to every request that does not set them: `Accept-Encoding`,
        /// `Accept-Language` and `User-Agent` by default.
        public var defaultHeaders: [String: String]

        /// How redirects are handled. Default: follow up to 5, no cycles.
        public var redirectConfiguration: HTTPClient.Configuration.RedirectConfiguration

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
        /// A session over an `HTTPClient` you give it keeps that client's own proxy.
        public var proxyEnvironment: ProxyEnvironment?

        /// TLS settings: custom trust roots, client certificates, protocol versions. `nil`
        /// means full verification against the system's trust roots.
        public var tlsConfiguration: TLSConfiguration?

        /// Trust policies (certificate or public-key pinning) per host name, lower-cased.
        public var serverTrustPolicies: [String: ServerTrustPolicy]

        /// Connection pool settings. By default a refused connection fails its request at
        /// once, as URLSession does, instead of retrying until the connect timeout.
        public var connectionPool: HTTPClient.Configuration.ConnectionPool

        /// Where downloads are written until they complete and move to their destination;
        /// `nil` for the system's temporary directory. A folder on the destination's volume
        /// makes the final move a rename instead of a copy.
        public var temporaryDirectory: URL?

        /// Where AsyncHTTPClient logs each request (connection choice, redirects, failures),
        /// with the metadata `moya.request-id` set to the request's `RequestContext.requestID`,
        /// so that its lines join a plugin's. `nil` (the default) keeps AsyncHTTPClient's
        /// logging disabled and builds no logger per request.
        ///
        /// AsyncHTTPClient logs at `.debug` and `.trace` only: lower the logger's level to see it.
        ///
        /// ```swift
        /// var logger = Logger(label: "http")
        /// logger.logLevel = .debug
        /// var configuration = Session.Configuration()
        /// configuration.logger = logger
        /// ```
        public var logger: Logger?

        /// The HTTP cache requests go through; `nil` (the default) for none, as in Moya 15.
        ///
        /// ```swift
        /// let session = Session(configuration: .init(cache: .memory(maxBytes: 20 << 20)))
        /// ```
        public var cache: HTTPCache?

        /// Where cookies are kept, as URLSession keeps them: `HTTPCookieStorage.shared` by
        /// default, so a server's `Set-Cookie` is stored and sent back on the requests it
        /// matches (domain, path, `Secure`, expiry), and cookies the app put there (from a web
        /// login, say) are sent too. `nil` for no cookies at all.
        ///
        /// A request whose `httpShouldHandleCookies` is `false` neither sends stored cookies
        /// nor stores the ones it receives; a request that sets its own `Cookie` header sends
        /// that one. Cookies are added below plugins, so loggers never see them, and a cached
        /// response never carries `Set-Cookie`.
        public var cookieStorage: HTTPCookieStorage?

        /// Creates a configuration with URLSession-like defaults.
        public init(
            connectTimeout: TimeAmount = .seconds(10),
            readTimeout: TimeAmount = .seconds(60),
            requestTimeout: TimeAmount? = .hours(24 * 7),
            defaultHeaders: [String: String] = Session.Configuration.defaultHeaders,
            redirectConfiguration: HTTPClient.Configuration.RedirectConfiguration = .follow(max: 5, allowCycles: false),
            decompression: HTTPClient.Decompression = Session.Configuration.defaultDecompression,
            httpVersion: HTTPClient.Configuration.HTTPVersion = .automatic,
            proxy: HTTPClient.Configuration.Proxy? = nil,
            proxyEnvironment: ProxyEnvironment? = .fromEnvironment(),
            connectionPool: HTTPClient.Configuration.ConnectionPool = Session.Configuration.defaultConnectionPool,
            tlsConfiguration: TLSConfiguration? = nil,
            serverTrustPolicies: [String: ServerTrustPolicy] = [:],
            temporaryDirectory: URL? = nil,
            logger: Logger? = nil,
            cache: HTTPCache? = nil,
            cookieStorage: HTTPCookieStorage? = .shared
        ) {
            self.cache = cache
            self.cookieStorage = cookieStorage
            self.temporaryDirectory = temporaryDirectory
            self.logger = logger
            self.tlsConfiguration = tlsConfiguration
            self.serverTrustPolicies = Dictionary(
                serverTrustPolicies.map { ($0.key.lowercased(), $0.value) },
                uniquingKeysWith: { _, last in last }
            )
            self.connectTimeout = connectTimeout
            self.readTimeout = readTimeout
            self.requestTimeout = requestTimeout
            self.defaultHeaders = defaultHeaders
            self.redirectConfiguration = redirectConfiguration
            self.decompression = decompression
            self.httpVersion = httpVersion
            self.proxy = proxy
            self.proxyEnvironment = proxyEnvironment?.isEmpty == false ? proxyEnvironment : nil
            self.connectionPool = connectionPool
        }

        /// How many HTTP/1.1 connections the default pool keeps to one host: 32.
        ///
        /// Servers and tools call a few upstreams many times at once, and a request that finds
        /// every connection busy waits in a queue. AsyncHTTPClient's 8 (or URLSession's 6, made
        /// for a phone's radio) lets a burst to a 50 ms upstream through at 160 requests a
        /// second; 32 gives 640, while still bounding the sockets one host receives.
        public static let defaultConnectionsPerHost = 32

        /// AsyncHTTPClient's pool with `defaultConnectionsPerHost` connections per host, failing
        /// requests at once when a connection cannot be made, as URLSession does.
        ///
        /// Requests beyond the limit wait for a connection for as long as their own timeouts
        /// allow (never just the connect timeout); to change the limit:
        ///
        /// ```swift
        /// var configuration = Session.Configuration()
        /// configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 64
        /// let session = Session(configuration: configuration)
        /// ```
        public static var defaultConnectionPool: HTTPClient.Configuration.ConnectionPool {
            var pool = HTTPClient.Configuration.ConnectionPool()
            pool.retryConnectionEstablishment = false
            pool.concurrentHTTP1ConnectionsPerHostSoftLimit = defaultConnectionsPerHost
            return pool
        }

        /// Decompression on, refusing bodies that inflate more than 100 times (zip bombs).
        public static var defaultDecompression: HTTPClient.Decompression {
            .enabled(limit: .ratio(100))
        }

        /// `Accept-Encoding` (the encodings the client decodes), `Accept-Language` (from the
        /// process's preferred languages) and `User-Agent` (`<executable> Moya/15`), in the
        /// spirit of Alamofire's defaults.
        public static var defaultHeaders: [String: String] {
            [
                "Accept-Encoding": "gzip;q=1.0, deflate;q=0.9",
                "Accept-Language": acceptLanguage,
                "User-Agent": userAgent,
            ]
        }

        private static var acceptLanguage: String {
            let languages = Locale.preferredLanguages.prefix(6)
            guard !languages.isEmpty else { return "en;q=1.0" }
            return languages.enumerated().map { index, language in
                let quality = 1.0 - Double(index) * 0.1
                return "\(language);q=\(String(format: "%.1f", quality))"
            }.joined(separator: ", ")
        }

        private static var userAgent: String {
            let executable = ProcessInfo.processInfo.processName
            #if os(Linux)
            let system = "Linux"
            #elseif os(macOS)
            let system = "macOS"
            #else
            let system = "Apple"
            #endif
            let version = ProcessInfo.processInfo.operatingSystemVersion
            return
                "\(executable) (\(system) \(version.majorVersion).\(version.minorVersion).\(version.patchVersion)) Moya/15.0.3"
        }

        /// The client configuration for every host, or for one pinned host, through `proxy`.
        func makeClientConfiguration(
            pinnedHost host: String? = nil,
            proxy: HTTPClient.Configuration.Proxy?
        ) -> HTTPClient.Configuration {
            // The transport follows redirects itself (`RedirectHops`), to keep each hop's cookies.
            var configuration = HTTPClient.Configuration(
                tlsConfiguration: tlsConfiguration,
                redirectConfiguration: .disallow,
                timeout: .init(connect: connectTimeout, read: nil),
                connectionPool: connectionPool,
                proxy: proxy,
                decompression: decompression
            )
            configuration.httpVersion = httpVersion
            // With no tracer bootstrapped, AsyncHTTPClient would still start a no-op span for
            // every request; it reads the tracer once, here, so leaving it out changes nothing
            // but the work saved.
            if InstrumentationSystem.tracer is NoOpTracer {
                configuration.tracing.tracer = nil
            }
            if let host, let policy = serverTrustPolicies[host] {
                var box = HTTPClientConfigurationBox(tlsConfiguration: tlsConfiguration)
                policy.apply(to: &box, host: host, baseTLS: tlsConfiguration ?? .makeClientConfiguration())
                configuration.tlsConfiguration = box.tlsConfiguration
                configuration.http1_1ConnectionDebugInitializer = box.connectionCheck
                configuration.http2ConnectionDebugInitializer = box.connectionCheck
            }
            return configuration
        }
    }
}
