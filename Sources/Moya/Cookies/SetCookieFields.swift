import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The changes a response's `Set-Cookie` fields ask of the cookie storage, read as RFC 6265
/// reads them where Foundation on Linux does not.
///
/// - **`Max-Age`** (5.2.2) sets the expiry to that many seconds from now, and a value of zero
///   or less means "expired": the cookie is removed, which is how servers log a user out.
///   Foundation on Linux keeps the attribute but gives the cookie no expiry date, so such a
///   cookie would live on as a session cookie; it is given its date here (Apple's platforms
///   already give one, and such a cookie is left as parsed).
/// - **An expiry in the past** removes the stored cookie too, instead of storing a dead one.
/// - **At most `limit` cookies per response** (RFC 6265 6.1 suggests storing at least 50 per
///   domain): the rest are left out, so one response cannot make the storage write thousands.
struct SetCookieFields {
    /// The most cookies one response may set.
    static let defaultLimit = 50

    let changes: [CookieChange]
    /// What a storage URLSession on Linux filled itself still needs: the removals, and the
    /// cookies whose `Max-Age` Foundation left without an expiry date.
    let maxAgeCorrections: [CookieChange]
    /// How many cookies were left out for being past the limit.
    let dropped: Int

    init(_ fields: [String], from url: URL, now: Date = Date(), limit: Int = Self.defaultLimit) {
        var changes: [CookieChange] = []
        var corrections: [CookieChange] = []
        var dropped = 0
        for field in fields {
            for cookie in HTTPCookie.cookies(withResponseHeaderFields: ["Set-Cookie": field], for: url) {
                guard changes.count < limit else {
                    dropped += 1
                    continue
                }
                let change = Self.change(for: cookie, from: url, now: now)
                changes.append(change)
                if case .remove = change {
                    corrections.append(change)
                } else if cookie.expiresDate == nil, Self.maxAge(of: cookie) != nil {
                    corrections.append(change)
                }
            }
        }
        self.changes = changes
        self.maxAgeCorrections = corrections
        self.dropped = dropped
    }

    private static func change(for cookie: HTTPCookie, from url: URL, now: Date) -> CookieChange {
        if let expires = cookie.expiresDate {
            return expires <= now ? .remove(cookie) : .store(cookie, from: url)
        }
        guard let maxAge = maxAge(of: cookie) else { return .store(cookie, from: url) }
        guard maxAge > 0 else { return .remove(cookie) }
        return .store(dated(cookie, expiring: now.addingTimeInterval(maxAge)) ?? cookie, from: url)
    }

    /// The cookie's `Max-Age` in seconds, when it has a valid one (RFC 6265 5.2.2: a leading
    /// `-` or digits only; anything else is ignored).
    static func maxAge(of cookie: HTTPCookie) -> TimeInterval? {
        guard let value = cookie.properties?[.maximumAge] else { return nil }
        let text = (value as? String) ?? (value as? NSNumber)?.stringValue ?? ""
        let digits = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        // Digits past what a Double holds exactly still mean "a long time" or "expired".
        guard let seconds = Double(text) else { return nil }
        return seconds
    }

    /// `cookie` with an expiry date instead of its `Max-Age`.
    private static func dated(_ cookie: HTTPCookie, expiring date: Date) -> HTTPCookie? {
        guard var properties = cookie.properties else { return nil }
        properties[.maximumAge] = nil
        properties[.discard] = nil
        properties[.expires] = date
        return HTTPCookie(properties: properties)
    }
}
