import Foundation

/// A decorator of the network transport that answers from, validates against and fills a
/// session's `HTTPCache`, by RFC 9111 for a private cache.
///
/// Requests a cache never answers pass straight to the base transport: other methods than
/// `GET`, downloads to a destination, uploads, range requests, and every request of a
/// `.disabled` policy. Unsafe methods (`POST`, `PUT`, `PATCH`, `DELETE` and any other that is not
/// safe) go through too, and a success removes what is stored for their URL (RFC 9111 4.4).
struct CachingTransport: StreamTransport {
    let base: any StreamTransport
    let cache: HTTPCache
    let policy: CachePolicy
    let sessionHeaders: [String: String]

    /// `base` itself when `configuration` has no cache; else `base` behind the cache, with
    /// `policy` (a target's `RequestPolicies.cachePolicy`) or the cache's own.
    static func over(
        _ base: any StreamTransport,
        configuration: Session.Configuration,
        policy: CachePolicy? = nil
    ) -> any StreamTransport {
        guard let cache = configuration.cache else { return base }
        return CachingTransport(
            base: base,
            cache: cache,
            policy: policy ?? cache.policy,
            sessionHeaders: configuration.defaultHeaders
        )
    }

    func send(_ exchange: TransportExchange, events: TransportEvents) {
        switch Route(exchange, policy: policy) {
        case .bypass:
            base.send(exchange, events: events)
        case .invalidate(let url):
            CacheRun(transport: self, exchange: exchange, events: events, url: url).sendInvalidating()
        case .lookUp(let key, let url):
            CacheRun(transport: self, exchange: exchange, events: events, url: url).lookUp(key)
        }
    }

    /// How the cache takes part in a request.
    enum Route: Equatable {
        /// Not at all.
        case bypass
        /// An unsafe method: sent, then what is stored for its URL removed.
        case invalidate(URL)
        /// Looked up, and its response perhaps stored.
        case lookUp(CacheKey, URL)

        init(_ exchange: TransportExchange, policy: CachePolicy) {
            let request = exchange.request
            let method = (request.httpMethod ?? "GET").uppercased()
            guard let url = request.url, let key = CacheKey(method: method, url: url) else {
                self = .bypass
                return
            }
            if !Self.safeMethods.contains(method) {
                self = .invalidate(url)
                return
            }
            guard method == "GET", policy != .disabled, !Self.isTransfer(exchange.endpoint.task),
                request.value(forHTTPHeaderField: "Range") == nil
            else {
                self = .bypass
                return
            }
            self = .lookUp(key, url)
        }

        /// RFC 9110 9.2.1: the methods that change nothing on the server.
        static let safeMethods: Set<String> = ["GET", "HEAD", "OPTIONS", "TRACE"]

        /// Downloads go to a file and uploads stream one: neither passes through the cache.
        private static func isTransfer(_ task: Task) -> Bool {
            switch task {
            case .downloadDestination, .downloadParameters, .uploadFile, .uploadMultipart, .uploadCompositeMultipart:
                true
            default:
                false
            }
        }
    }

    /// The keys an unsafe request's success invalidates: its URL's, and those of `Location` and
    /// `Content-Location` when they are on the same origin (RFC 9111 4.4).
    static func invalidatedKeys(requestURL: URL, response: Response) -> [CacheKey] {
        var urls = [requestURL]
        let headers = response.receivedHead?.head.headers
        for name in ["Location", "Content-Location"] {
            guard let value = headers?.first(name: name),
                let url = URL(string: value, relativeTo: requestURL)?.absoluteURL,
                isSameOrigin(url, requestURL)
            else { continue }
            urls.append(url)
        }
        return urls.compactMap(CacheKey.get)
    }

    private static func isSameOrigin(_ lhs: URL, _ rhs: URL) -> Bool {
        lhs.scheme?.lowercased() == rhs.scheme?.lowercased() && lhs.host?.lowercased() == rhs.host?.lowercased()
            && lhs.port == rhs.port
    }
}
