import Foundation
import NIOHTTP1

/// A stored response: what is needed to serve it again, and to judge its age and freshness.
///
/// A value, whose parts sit behind one reference: a lookup copies the stored response several
/// times (out of the store, into the decision, into the served response), and a copy then
/// costs one retain, not one per part. A change (only a `304`'s refresh makes one) replaces the
/// reference.
struct CachedResponse: Sendable, Equatable {
    /// The parts of a stored response.
    private struct Parts: Sendable, Equatable {
        var statusCode: Int
        var headers: CachedHeaders
        var body: Data
        var requestTime: Date
        var responseTime: Date
        var variant: RequestVariant
        var finalURL: URL?
        var parsed: Parsed

        /// Sets the headers and what is parsed from them; headers equal to the stored ones (a
        /// `304` repeating them: the same `Date` within a second, say) leave both as they are.
        mutating func setHeaders(_ newHeaders: CachedHeaders) {
            guard newHeaders != headers else { return }
            headers = newHeaders
            parsed = Parsed(newHeaders)
        }
    }

    /// Immutable, so shared by every copy.
    private final class Box: Sendable {
        let parts: Parts

        init(_ parts: Parts) {
            self.parts = parts
        }
    }

    private var box: Box

    init(
        statusCode: Int,
        headers: CachedHeaders,
        body: Data,
        requestTime: Date,
        responseTime: Date,
        variant: RequestVariant,
        finalURL: URL?
    ) {
        box = Box(
            Parts(
                statusCode: statusCode,
                headers: headers,
                body: body,
                requestTime: requestTime,
                responseTime: responseTime,
                variant: variant,
                finalURL: finalURL,
                parsed: Parsed(headers)
            )
        )
    }

    static func == (lhs: CachedResponse, rhs: CachedResponse) -> Bool {
        lhs.box === rhs.box || lhs.box.parts == rhs.box.parts
    }

    private mutating func change(_ update: (inout Parts) -> Void) {
        var parts = box.parts
        update(&parts)
        box = Box(parts)
    }

    var statusCode: Int { box.parts.statusCode }

    /// The stored header fields; setting them parses them again (`parsed`).
    var headers: CachedHeaders {
        get { box.parts.headers }
        set { change { $0.setHeaders(newValue) } }
    }

    var body: Data { box.parts.body }

    /// When the request that brought the response was sent (RFC 9111 4.2.3 `request_time`).
    var requestTime: Date {
        get { box.parts.requestTime }
        set { change { $0.requestTime = newValue } }
    }

    /// When the response arrived (`response_time`).
    var responseTime: Date {
        get { box.parts.responseTime }
        set { change { $0.responseTime = newValue } }
    }

    /// The request headers the response was selected with.
    var variant: RequestVariant {
        get { box.parts.variant }
        set { change { $0.variant = newValue } }
    }

    /// The URL the response came from, when redirects led away from the request's URL; its
    /// user and password are never kept.
    var finalURL: URL? {
        get { box.parts.finalURL }
        set { change { $0.finalURL = newValue } }
    }

    /// The response a `304` confirmed (RFC 9111 4.3.4): its headers updated with the `304`'s,
    /// its times those of the revalidation.
    func refreshed(by notModified: HTTPHeaders, requestTime: Date, responseTime: Date) -> CachedResponse {
        var refreshed = self
        refreshed.change {
            $0.setHeaders($0.headers.updated(with: notModified))
            $0.requestTime = requestTime
            $0.responseTime = responseTime
        }
        return refreshed
    }

    /// What lookups read from the headers, parsed when the headers are set.
    var parsed: Parsed { box.parts.parsed }

    /// The response's `Cache-Control` directives.
    var cacheControl: CacheControl { parsed.cacheControl }

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
