/// How a session's requests follow redirects, the same on every transport
/// (`Session.Configuration.redirectConfiguration`).
///
/// ```swift
/// let session = Session(configuration: .init(redirectConfiguration: .follow(max: 3, allowCycles: false)))
/// ```
///
/// Credentials (`Authorization`, `Proxy-Authorization`, `Cookie`, `Origin`) never follow a
/// request to another origin.
public struct RedirectPolicy: Sendable, Equatable {
    /// How many redirects are followed; `nil` when none is.
    let limit: Int?
    let allowsCycles: Bool
    let retainsPostOn301: Bool
    let retainsPostOn302: Bool

    /// Follows up to `max` redirects; with `allowCycles`, a redirect may lead back to a URL
    /// the request visited already. A `POST` answered with `301`, `302` or `303` is sent again
    /// as a `GET` without its body, as browsers and URLSession do.
    public static func follow(max: Int, allowCycles: Bool) -> RedirectPolicy {
        follow(
            max: max,
            allowCycles: allowCycles,
            retainHTTPMethodAndBodyOn301: false,
            retainHTTPMethodAndBodyOn302: false
        )
    }

    /// Follows up to `max` redirects, keeping the method and body of a request answered with
    /// `301` or `302` when asked to.
    public static func follow(
        max: Int,
        allowCycles: Bool,
        retainHTTPMethodAndBodyOn301: Bool,
        retainHTTPMethodAndBodyOn302: Bool
    ) -> RedirectPolicy {
        RedirectPolicy(
            limit: Swift.max(0, max),
            allowsCycles: allowCycles,
            retainsPostOn301: retainHTTPMethodAndBodyOn301,
            retainsPostOn302: retainHTTPMethodAndBodyOn302
        )
    }

    /// Follows no redirect: the `3xx` response is the request's answer.
    public static let disallow = RedirectPolicy(
        limit: nil,
        allowsCycles: false,
        retainsPostOn301: false,
        retainsPostOn302: false
    )
}
