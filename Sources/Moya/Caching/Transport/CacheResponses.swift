import Foundation
import NIOHTTP1

/// Turns stored entries into `Response`s and network responses into stored entries.
enum CacheResponses {
    /// The response a stored entry serves, with its current age in an `Age` header (RFC 9111
    /// 5.1 asks a cache to send one).
    static func response(
        from stored: CachedResponse,
        age: TimeInterval,
        status: CacheStatus,
        _ exchange: TransportExchange
    )
        -> Response
    {
        let seconds = age.isFinite ? Int(min(max(age, 0), TimeInterval(CacheControl.deltaSecondsLimit))) : 0
        var headers = stored.parsed.servedHeaders
        headers.add(name: "Age", value: String(seconds))
        let head = HTTPResponseHead(
            version: .http1_1,
            status: HTTPResponseStatus(statusCode: stored.statusCode),
            headers: headers
        )
        let url = stored.finalURL ?? exchange.request.url ?? URL(fileURLWithPath: "/")
        return Response(
            head: head,
            url: url,
            data: stored.body,
            request: exchange.request,
            fileURL: nil,
            cacheStatus: status
        )
    }

    /// `only-if-cached` found nothing: the cache's own `504 Gateway Timeout`, as URLSession and
    /// OkHttp answer (RFC 9111 5.2.1.7).
    static func gatewayTimeout(for exchange: TransportExchange, url: URL) -> Response {
        Response(
            head: HTTPResponseHead(version: .http1_1, status: .gatewayTimeout, headers: ["Content-Length": "0"]),
            url: url,
            data: Data(),
            request: exchange.request,
            fileURL: nil,
            cacheStatus: .unsatisfiable
        )
    }

    /// The entry to store for a network response to `exchange` (whose upper-cased method is
    /// `method`, as its key holds it), or `nil` when RFC 9111 (or the cache's settings) forbid
    /// storing it.
    static func entry(
        for response: Response,
        method: String,
        exchange: TransportExchange,
        cache: HTTPCache,
        sessionHeaders: [String: String],
        requestTime: Date,
        responseTime: Date
    ) -> CachedResponse? {
        guard let received = response.receivedHead else { return nil }
        let request = exchange.request
        let headers = CachedHeaders(storing: received.head.headers)
        let problem = CacheStorability.problem(
            .init(
                method: method,
                requestControl: CacheDecision.requestControl(of: request),
                hasAuthorization: request.value(forHTTPHeaderField: "Authorization") != nil,
                storesAuthorizedResponses: cache.storesAuthorizedResponses,
                statusCode: response.statusCode,
                headers: headers
            )
        )
        guard problem == nil, let varyNames = RequestVariant.varyNames(headers.values("vary")) else { return nil }
        let finalURL = CachedResponse.withoutCredentials(received.url)
        return CachedResponse(
            statusCode: response.statusCode,
            headers: headers,
            body: response.data,
            requestTime: requestTime,
            responseTime: responseTime,
            variant: RequestVariant(varyNames: varyNames, request: request, sessionHeaders: sessionHeaders),
            // Kept only when a redirect led elsewhere: then the response named it itself.
            finalURL: finalURL == CachedResponse.withoutCredentials(request.url) ? nil : finalURL
        )
    }
}
