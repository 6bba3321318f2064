import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOSSL

extension Session {
    /// How a session connects and what it sends by default: the settings every transport
    /// shares, and, in `asyncHTTPClient` and `urlSession`, what only one transport understands.
    ///
    /// ```swift
    /// var configuration = Session.Configuration(readTimeout: .seconds(30), cache: .memory(maxBytes: 20 << 20))
    /// configuration.asyncHTTPClient.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 64
    /// let session = Session(configuration: configuration)
    /// ```
    public struct Configuration: Sendable {
        /// The longest time to wait for a connection (TCP and TLS). Default: 10 seconds.
        public var connectTimeout: Duration

        /// The longest time to wait for the next bytes of a response (head or body) when the
        /// request does not set its own `timeoutInterval`. Default: 60 seconds, as URLSession.
        public var readTimeout: Duration

        /// The longest a whole request may take, response body included; `nil` for no limit.
        /// Default: 7 days, as URLSession's resource timeout.
        ///
        /// One deadline per request, fixed when it is first sent: retries, the answer to an
        /// authentication challenge and the waits between attempts count against it, and no
        /// retry starts once it has passed.
        public var requestTimeout: Duration?

        /// Headers added to every request that does not set them: `Accept-Encoding`,
        /// `Accept-Language` and `User-Agent` by default.
        public var defaultHeaders: [String: String]

        /// How redirects are handled. Default: follow up to 5, no cycles.
        public var redirectConfiguration: RedirectPolicy

        /// TLS settings: custom trust roots, client certificates, protocol versions. `nil`
        /// means full verification against the system's trust roots.
        public var tlsConfiguration: TLSConfiguration?

        /// Trust policies (certificate or public-key pinning) per host name, lower-cased.
        public var serverTrustPolicies: [String: ServerTrustPolicy]

        /// Where downloads are written until they complete and move to their destination;
        /// `nil` for the system's temporary directory. A folder on the destination's volume
        /// makes the final move a rename instead of a copy.
        public var temporaryDirectory: URL?

        /// Where the session warns of its cache's failures and AsyncHTTPClient logs each request
        /// (connection choice, redirects, failures), with the metadata `moya.request-id` set to
        /// the request's `RequestContext.requestID`, so that its lines join a plugin's. `nil`
        /// (the default) keeps AsyncHTTPClient's logging disabled and builds no logger per
        /// request.
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

        /// Retry budget, circuit breaker, concurrency and rate limits for the session's requests,
        /// their state shared by every provider using the session; none by default (see
        /// `ResiliencePolicies`).
        public var resilience = ResiliencePolicies()

        /// What only the AsyncHTTPClient transport reads (connection pool, HTTP versions,
        /// decompression, proxies): the transport a session built from this configuration uses
        /// on Linux and every non-Apple platform.
        public var asyncHTTPClient: AsyncHTTPClientTransport.Configuration

        /// What only the URLSession transport reads (its connection limit): the transport a
        /// session built from this configuration uses on Apple's platforms.
        public var urlSession: URLSessionTransport.Configuration

        /// Creates a configuration with URLSession-like defaults.
        ///
        /// The settings here are the ones every transport shares; each transport's own are in
        /// `asyncHTTPClient` and `urlSession`.
        public init(
            connectTimeout: Duration = Defaults.connectTimeout,
            readTimeout: Duration = Defaults.readTimeout,
            requestTimeout: Duration? = Defaults.requestTimeout,
            defaultHeaders: [String: String] = Session.Configuration.defaultHeaders,
            redirectConfiguration: RedirectPolicy = Defaults.redirects,
            tlsConfiguration: TLSConfiguration? = nil,
            serverTrustPolicies: [String: ServerTrustPolicy] = [:],
            temporaryDirectory: URL? = nil,
            logger: Logger? = nil,
            cache: HTTPCache? = nil,
            cookieStorage: HTTPCookieStorage? = .shared,
            asyncHTTPClient: AsyncHTTPClientTransport.Configuration = AsyncHTTPClientTransport.Configuration(),
            urlSession: URLSessionTransport.Configuration = URLSessionTransport.Configuration()
        ) {
            self.asyncHTTPClient = asyncHTTPClient
            self.urlSession = urlSession
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
        }

        /// The defaults of the settings every transport shares, named once for the initialiser
        /// and for the deprecated one that still takes the AsyncHTTPClient transport's settings.
        @usableFromInline
        enum Defaults {
            /// 10 seconds.
            @usableFromInline static let connectTimeout = Duration.seconds(10)
            /// 60 seconds, as URLSession's request timeout.
            @usableFromInline static let readTimeout = Duration.seconds(60)
            /// 7 days, as URLSession's resource timeout.
            @usableFromInline static let requestTimeout: Duration? = .seconds(7 * 24 * 3600)
            /// Follow up to 5, no cycles.
            @usableFromInline static let redirects = RedirectPolicy.follow(max: 5, allowCycles: false)
        }

        /// How many connections either transport keeps to one host by default: 32.
        ///
        /// Servers and tools call a few upstreams many times at once, and a request that finds
        /// every connection busy waits in a queue. AsyncHTTPClient's 8 (or URLSession's 6, made
        /// for a phone's radio) lets a burst to a 50 ms upstream through at 160 requests a
        /// second; 32 gives 640, while still bounding the sockets one host receives.
        public static let defaultConnectionsPerHost = 32

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
    }
}
