import Foundation

/// URLs with their secrets taken out for logs and errors, which need the URL itself but not the
/// password in it. Spans take more out, every query value too (`TelemetryURL`).
enum URLRedaction {
    /// What a URL's password is replaced with in logs.
    static let passwordPlaceholder = "redacted"

    /// `url` with its password, if any, replaced by `redacted` and its user name kept: the name
    /// says which account was used, which helps reading a log, and is not a secret.
    static func hidingPassword(_ url: URL) -> URL {
        guard let password = url.password, !password.isEmpty else { return url }
        return rewritingUserInfo(of: url) { $0.percentEncodedPassword = passwordPlaceholder }
    }

    /// `url` without user name and password: an error travels further than a log (crash
    /// reports, analytics), so it keeps only what names the resource.
    static func removingUserInfo(_ url: URL) -> URL {
        guard url.user != nil || url.password != nil else { return url }
        return rewritingUserInfo(of: url) {
            $0.percentEncodedUser = nil
            $0.percentEncodedPassword = nil
        }
    }

    private static func rewritingUserInfo(of url: URL, _ rewrite: (inout URLComponents) -> Void) -> URL {
        let absolute = url.absoluteURL
        if var components = URLComponents(url: absolute, resolvingAgainstBaseURL: false) {
            rewrite(&components)
            if let rewritten = components.url {
                return rewritten
            }
        }
        // A URL that cannot be taken apart must still not leak its secret: keep only the server.
        var server = URLComponents()
        server.scheme = absolute.scheme
        server.host = absolute.host
        server.port = absolute.port
        return server.url ?? URL(fileURLWithPath: "/")
    }
}
