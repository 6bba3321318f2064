/// Whether a response may be stored, by RFC 9111 section 3 for a private cache, with 3.5's rule
/// for requests that carry `Authorization`.
enum CacheStorability {
    /// Why a response is not stored; `nil` from `problem` when it may be.
    enum Refusal: Equatable {
        case method
        case status
        case noStore
        case varyAll
        case authorization
        case noFreshnessInformation
    }

    /// What `problem` needs to know about the exchange.
    struct TransportExchange {
        var method: String
        var requestControl: CacheControl
        var hasAuthorization: Bool
        /// The cache was told to store responses to requests with `Authorization` anyway.
        var storesAuthorizedResponses: Bool
        var statusCode: Int
        var headers: CachedHeaders
    }

    /// Why the response must not be stored, or `nil` when it may be.
    static func problem(_ exchange: TransportExchange) -> Refusal? {
        // Only GET is both understood and cacheable here: HEAD and POST responses are not stored.
        guard exchange.method == "GET" else { return .method }
        // Final, understood status codes; partial content and 304 are never stored.
        guard (200...599).contains(exchange.statusCode), exchange.statusCode != 206, exchange.statusCode != 304
        else { return .status }
        let control = CacheControl(fieldValues: exchange.headers.values("cache-control"))
        guard !control.noStore, !exchange.requestControl.noStore else { return .noStore }
        guard RequestVariant.varyNames(exchange.headers.values("vary")) != nil else { return .varyAll }
        if exchange.hasAuthorization, !exchange.storesAuthorizedResponses,
            !(control.isPublic || control.mustRevalidate || control.sharedMaxAge != nil)
        {
            return .authorization
        }
        let explicit =
            control.maxAge != nil || exchange.headers.first("expires") != nil || control.isPublic
            || control.isPrivate
        guard explicit || CacheFreshness.heuristicallyCacheable.contains(exchange.statusCode) else {
            return .noFreshnessInformation
        }
        return nil
    }
}
