import Foundation

/// The redirects of one exchange through a transport that follows them itself (the
/// AsyncHTTPClient transport): the URLs visited so far, and what each response head means for
/// the exchange — the answer, a redirect to follow with the next request, or too many.
///
/// Following them above AsyncHTTPClient, rather than letting it follow them out of sight, is
/// what lets every hop's `Set-Cookie` be stored and the next hop carry the cookies its URL
/// matches, as URLSession does: a login answered with `303` and a cookie, say. The rules are
/// AsyncHTTPClient's and URLSession's (`RedirectRule`). A value, advanced by each hop, with no
/// IO: tested alone.
struct RedirectHops: Sendable {
    let rule: RedirectRule
    /// The request's first URL, and those redirects led to: apart, so that the many requests
    /// never redirected allocate no list.
    private let firstURL: URL
    private var laterURLs: [URL] = []

    /// The hops of a request to `url`; `nil` when the rule follows no redirect.
    init?(rule: RedirectRule, firstURL url: URL?) {
        guard rule.limit != nil, let url else { return nil }
        self.rule = rule
        self.firstURL = url
    }

    /// The first URL and those redirects led to, for the limit and the cycle rule.
    var visited: [URL] {
        [firstURL] + laterURLs
    }

    /// The statuses a redirect is followed for, as URLSession follows them.
    static let followedStatuses: Set<Int> = [301, 302, 303, 307, 308]

    /// What follows a response head.
    enum Step: Equatable {
        /// The response is the exchange's answer.
        case deliver
        /// The response redirects to `request`; `keepsBody` is `false` when it became a `GET`
        /// without the body.
        case follow(URLRequest, keepsBody: Bool)
        /// Past the limit, or back to a URL visited (when cycles are not allowed).
        case tooManyRedirects
    }

    /// Where a response with `status` and a `Location` of `location` redirects a request to
    /// `url`: `nil` when it is no redirect to follow (another status, no `Location`, one that
    /// does not parse, or a scheme other than http(s)).
    static func target(status: Int, location: String?, from url: URL?) -> URL? {
        guard followedStatuses.contains(status), let location, !location.isEmpty,
            let target = URL(string: location, relativeTo: url)?.absoluteURL,
            let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https",
            target.host?.isEmpty == false
        else { return nil }
        return target
    }

    /// What follows the head (`status`, `location`) of the response to `request`, recording
    /// the hop when it is followed.
    mutating func next(status: Int, location: String?, after request: URLRequest) -> Step {
        guard let target = Self.target(status: status, location: location, from: request.url) else { return .deliver }
        let keepsBody = keepsMethodAndBody(status: status, method: request.httpMethod ?? "GET")
        var next = request
        next.url = target
        if !keepsBody {
            next.httpMethod = "GET"
            next.httpBody = nil
            next.setValue(nil, forHTTPHeaderField: "Content-Type")
            next.setValue(nil, forHTTPHeaderField: "Content-Length")
        }
        switch rule.decide(from: request.url, to: next, visited: visited) {
        case .follow(let followed):
            laterURLs.append(target)
            return .follow(followed, keepsBody: keepsBody)
        case .refuse:
            return .tooManyRedirects
        case .deliverRedirect:
            return .deliver
        }
    }

    /// `303` turns any method but `HEAD` into a `GET` without a body; `301` and `302` turn a
    /// `POST` into one unless the rule retains it; `307` and `308` keep the method and the body.
    private func keepsMethodAndBody(status: Int, method: String) -> Bool {
        let method = method.uppercased()
        switch status {
        case 303: return method == "HEAD"
        case 301: return method != "POST" || rule.retainsPostOn301
        case 302: return method != "POST" || rule.retainsPostOn302
        default: return true
        }
    }
}
