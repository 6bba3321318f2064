import Foundation
import Logging

/// A decorator of the network transport that keeps cookies as URLSession does: the stored
/// cookies a request matches are added to it, and the `Set-Cookie` fields of its response are
/// stored (see `Session.Configuration.cookieStorage`).
///
/// It wraps the cache, so that a request looked up in the cache carries its cookies (a `Vary:
/// Cookie` response is matched with them) and a response from the cache, which never keeps
/// `Set-Cookie`, stores nothing. Cookies are added after plugins ran: no logger sees them.
struct CookieTransport: StreamTransport {
    let base: any StreamTransport
    let jar: CookieJar
    let logger: Logger?

    /// `base` behind `configuration`'s cookie storage, or `base` itself when it has none.
    static func over(_ base: any StreamTransport, configuration: Session.Configuration) -> any StreamTransport {
        guard let storage = configuration.cookieStorage else { return base }
        return CookieTransport(base: base, jar: CookieJar.jar(for: storage), logger: configuration.logger)
    }

    /// The response's cookies are in the storage before its completion runs, as with URLSession:
    /// code reading the storage in a completion finds them. They are written off the event loop
    /// (`CookieJar`), so only this request waits for them.
    func send(_ exchange: TransportExchange, events: TransportEvents) {
        guard exchange.request.httpShouldHandleCookies, let url = exchange.request.url else {
            base.send(exchange, events: events)
            return
        }
        var storing = events
        storing.completion = { [self] result in
            storeCookies(of: result, requestURL: url) { events.completion(result) }
        }
        base.send(withCookies(exchange, for: url), events: storing)
    }

    func open(_ exchange: TransportExchange, events: StreamEvents) {
        guard exchange.request.httpShouldHandleCookies, let url = exchange.request.url else {
            base.open(exchange, events: events)
            return
        }
        var storing = events
        storing.head = { [self] result in
            storeCookies(of: result.map(\.head), requestURL: url) { events.head(result) }
        }
        base.open(withCookies(exchange, for: url), events: storing)
    }

    /// Stores the cookies the response of `result` sets, then runs `next`: at once when it sets
    /// none, else once the jar has written them.
    private func storeCookies(
        of result: Result<Response, MoyaError>,
        requestURL url: URL,
        then next: @escaping @Sendable () -> Void
    ) {
        let response = Self.response(of: result)
        let fields = Self.setCookieFields(of: response)
        guard !fields.isEmpty else { return next() }
        jar.store(fields: fields, from: Self.origin(of: response, requestURL: url), logger: logger, written: next)
    }

    /// The exchange with the stored cookies for `url` in a `Cookie` header, unless the request
    /// sets its own, and the hook that keeps cookies across the redirects a transport follows
    /// itself: each hop's `Set-Cookie` is stored, and the next hop carries the cookies its own
    /// URL matches (a header the request set itself is left as it is).
    private func withCookies(_ exchange: TransportExchange, for url: URL) -> TransportExchange {
        var exchange = exchange
        let ownHeader = exchange.request.value(forHTTPHeaderField: "Cookie") != nil
        if !ownHeader {
            Self.addCookies(to: &exchange.request, for: url, from: jar)
        }
        exchange.redirectCookies = RedirectCookies(jar: jar, logger: logger, sendsStored: !ownHeader)
        return exchange
    }

    /// Sets the `Cookie` header of `request` to the cookies `storage` keeps for `url`, if any.
    static func addCookies(to request: inout URLRequest, for url: URL, from jar: CookieJar) {
        let stored = jar.cookies(for: url)
        guard !stored.isEmpty else { return }
        let now = Date()
        let cookies = stored.filter { matches($0, url, now: now) }
        guard !cookies.isEmpty else { return }
        for (name, value) in HTTPCookie.requestHeaderFields(with: cookies) {
            request.setValue(value, forHTTPHeaderField: name)
        }
    }

    /// Whether `cookie` goes with a request to `url` (RFC 6265 5.4): its path matches, it is
    /// not `Secure` on plain HTTP, and it has not expired. The storage matched the domain;
    /// Foundation on Linux matches nothing else, so this is checked here on every platform.
    static func matches(_ cookie: HTTPCookie, _ url: URL, now: Date) -> Bool {
        if cookie.isSecure, url.scheme?.lowercased() != "https" { return false }
        if let expires = cookie.expiresDate, expires <= now { return false }
        return pathMatches(cookie.path, requestPath: url.path.isEmpty ? "/" : url.path)
    }

    /// RFC 6265 5.1.4: the same path, or a prefix of it that ends at a `/`.
    static func pathMatches(_ cookiePath: String, requestPath: String) -> Bool {
        let cookiePath = cookiePath.isEmpty ? "/" : cookiePath
        guard requestPath.hasPrefix(cookiePath) else { return false }
        return requestPath.count == cookiePath.count || cookiePath.hasSuffix("/")
            || requestPath.dropFirst(cookiePath.count).hasPrefix("/")
    }

    private static func response(of result: Result<Response, MoyaError>) -> Response? {
        switch result {
        case .success(let response): return response
        case .failure(let error): return error.response
        }
    }

    /// The `Set-Cookie` values of `response`, read from the raw head: building the
    /// `HTTPURLResponse` of every response to look for them would cost more than the rest of
    /// the request's handling on Linux.
    private static func setCookieFields(of response: Response?) -> [String] {
        response?.headerValues(named: "Set-Cookie") ?? []
    }

    /// The URL a response came from (after redirects), whose cookies it sets, with that URL as
    /// the main document's: what URLSession's default accept policy, "only from the main
    /// document's domain", allows for a request an app makes itself.
    private static func origin(of response: Response?, requestURL: URL) -> URL {
        response?.response?.url ?? requestURL
    }
}

/// The session's cookies on the redirect hops of one request, for a transport that follows
/// redirects itself (`TransportExchange.redirectCookies`).
struct RedirectCookies: Sendable {
    let jar: CookieJar
    let logger: Logger?
    /// Whether the request sends the stored cookies; `false` when it set its own `Cookie`
    /// header, which then goes on as it is.
    let sendsStored: Bool

    /// Stores `fields`, the `Set-Cookie` values of a redirect received from `url`, and gives
    /// `next`, the request following it, the stored cookies its own URL matches: the jar's
    /// lookups see what it was just given before the storage has written it.
    func hop(setting fields: [String], from url: URL, to next: inout URLRequest) {
        if !fields.isEmpty {
            jar.store(fields: fields, from: url, logger: logger)
        }
        guard sendsStored, let nextURL = next.url else { return }
        next.setValue(nil, forHTTPHeaderField: "Cookie")
        CookieTransport.addCookies(to: &next, for: nextURL, from: jar)
    }
}
