import Foundation

/// A stored response: what is needed to serve it again, and to judge its age and freshness.
struct CachedResponse: Sendable, Equatable {
    var statusCode: Int
    var headers: CachedHeaders {
        didSet { parsed = Parsed(headers) }
    }
    var body: Data
    /// When the request that brought the response was sent (RFC 9111 4.2.3 `request_time`).
    var requestTime: Date
    /// When the response arrived (`response_time`).
    var responseTime: Date
    /// The request headers the response was selected with.
    var variant: RequestVariant
    /// The URL the response came from, when redirects led away from the request's URL; its
    /// user and password are never kept.
    var finalURL: URL?

    /// What lookups read from the headers, parsed when the headers are set.
    private(set) var parsed: Parsed

    /// The response's `Cache-Control` directives.
    var cacheControl: CacheControl { parsed.cacheControl }

    init(
        statusCode: Int,
        headers: CachedHeaders,
        body: Data,
        requestTime: Date,
        responseTime: Date,
        variant: RequestVariant,
        finalURL: URL?
    ) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
        self.requestTime = requestTime
        self.responseTime = responseTime
        self.variant = variant
        self.finalURL = finalURL
        self.parsed = Parsed(headers)
    }

    /// The response's `ETag`, used to validate it.
    var entityTag: String? {
        headers.first("etag")
    }

    /// The response's `Last-Modified`, used to validate it when it has no `ETag`.
    var lastModified: String? {
        headers.first("last-modified")
    }

    /// Whether the response can be validated with a conditional request.
    var hasValidator: Bool {
        entityTag != nil || lastModified != nil
    }

    /// Roughly what the entry takes, for the stores' byte budgets.
    var byteCount: Int {
        body.count + headers.byteCount + variant.entries.count * 48 + (finalURL?.absoluteString.utf8.count ?? 0) + 64
    }

    /// A URL without its user and password, which a stored entry never keeps.
    static func withoutCredentials(_ url: URL?) -> URL? {
        guard let url, url.user != nil || url.password != nil else { return url }
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return nil }
        components.user = nil
        components.password = nil
        return components.url
    }
}
