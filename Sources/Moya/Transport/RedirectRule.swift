import Foundation

/// The session's redirect settings (`Session.Configuration.redirectConfiguration`), applied the
/// same by both transports: the same limit, the same cycle rule, and credentials that never
/// follow a request to another origin.
///
/// URLSession on Linux follows up to 20 redirects and forwards every header, `Authorization`
/// included, to whatever host a redirect names; its delegate is where both are corrected. The
/// AsyncHTTPClient transport follows redirects itself (`RedirectHops`), so that each hop's
/// cookies are kept as URLSession keeps them.
struct RedirectRule: Sendable {
    /// `nil` when redirects are not followed.
    let limit: Int?
    let allowsCycles: Bool
    /// Whether a `POST` answered with `301` is sent again as a `POST` with its body, rather
    /// than as a `GET` without one (what browsers and URLSession do, and the default).
    let retainsPostOn301: Bool
    /// The same for `302`.
    let retainsPostOn302: Bool

    /// The headers that never go to another origin (AsyncHTTPClient drops the same ones).
    static let originBoundHeaders = ["Authorization", "Proxy-Authorization", "Cookie", "Origin"]

    init(limit: Int?, allowsCycles: Bool, retainsPostOn301: Bool = false, retainsPostOn302: Bool = false) {
        self.limit = limit
        self.allowsCycles = allowsCycles
        self.retainsPostOn301 = retainsPostOn301
        self.retainsPostOn302 = retainsPostOn302
    }

    /// The rule of the session's `RedirectPolicy`.
    init(_ policy: RedirectPolicy) {
        self.init(
            limit: policy.limit,
            allowsCycles: policy.allowsCycles,
            retainsPostOn301: policy.retainsPostOn301,
            retainsPostOn302: policy.retainsPostOn302
        )
    }

    /// The error of a request to `url` stopped by the limit or a cycle, as URLSession reports
    /// it: both transports fail with it.
    func tooManyRedirects(url: URL?) -> Error {
        var userInfo: [String: Any] = [
            NSLocalizedDescriptionKey:
                "Too many redirects: more than \(limit ?? 0), or back to a URL already visited "
                + "(Session.Configuration.redirectConfiguration)."
        ]
        userInfo[NSURLErrorFailingURLErrorKey] = url.map(URLRedaction.removingUserInfo)
        return NSError(domain: NSURLErrorDomain, code: NSURLErrorHTTPTooManyRedirects, userInfo: userInfo)
    }

    /// What to do with one redirect.
    enum Decision: Equatable {
        /// Follow it with this request.
        case follow(URLRequest)
        /// Do not follow: the redirect response is the answer.
        case deliverRedirect
        /// Too many redirects, or a cycle: the request fails.
        case refuse
    }

    /// Whether to follow the redirect from `previous` to `next`, given the URLs already
    /// visited (the first request's included) and counted in `visited`.
    func decide(from previous: URL?, to next: URLRequest, visited: [URL]) -> Decision {
        guard let limit else { return .deliverRedirect }
        guard let target = next.url, visited.count <= limit else { return .refuse }
        if !allowsCycles, visited.contains(where: { $0.absoluteString == target.absoluteString }) {
            return .refuse
        }
        guard let previous, !Self.sameOrigin(previous, target) else { return .follow(next) }
        var stripped = next
        for name in Self.originBoundHeaders {
            stripped.setValue(nil, forHTTPHeaderField: name)
        }
        return .follow(stripped)
    }

    /// Same scheme, host and port (RFC 6454), the default port written or not.
    static func sameOrigin(_ first: URL, _ second: URL) -> Bool {
        first.scheme?.lowercased() == second.scheme?.lowercased()
            && first.host?.lowercased() == second.host?.lowercased()
            && effectivePort(first) == effectivePort(second)
    }

    private static func effectivePort(_ url: URL) -> Int? {
        if let port = url.port { return port }
        switch url.scheme?.lowercased() {
        case "http": return 80
        case "https": return 443
        default: return nil
        }
    }
}
