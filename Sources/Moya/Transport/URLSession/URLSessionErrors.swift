import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The errors URLSession reports, made the same as the other transport's where URLSession on
/// Linux is vaguer than on Apple's platforms.
enum URLSessionErrors {
    /// `error` as the transport reports it: an untrusted certificate, which URLSession on Linux
    /// reports as `NSURLErrorUnknown` with libcurl's text, becomes
    /// `NSURLErrorServerCertificateUntrusted`, as on Apple's platforms; the original stays under
    /// `NSUnderlyingErrorKey`. Other errors pass through unchanged.
    static func map(_ error: Error, url: URL?) -> Error {
        let nsError = error as NSError
        guard nsError.domain == NSURLErrorDomain, nsError.code == NSURLErrorUnknown else { return error }
        let text = nsError.localizedDescription
        guard text.contains("SSL certificate problem") || text.contains("certificate verify failed") else {
            return error
        }
        var userInfo: [String: Any] = [
            NSLocalizedDescriptionKey: "The server's certificate is not trusted: \(text)",
            NSUnderlyingErrorKey: error,
        ]
        userInfo[NSURLErrorFailingURLErrorKey] = url.map(URLRedaction.removingUserInfo)
        return NSError(domain: NSURLErrorDomain, code: NSURLErrorServerCertificateUntrusted, userInfo: userInfo)
    }
}

/// The settings of a session that the URLSession transport cannot apply on this platform: a
/// request needing one is refused before anything is sent rather than sent without it.
enum URLSessionUnsupportedSetting {
    /// Custom trust roots, client certificates and pinning. libcurl's URLSession on Linux
    /// verifies against the system's roots only and calls no delegate about a server's trust
    /// (checked: a self-signed server fails the request, and neither challenge method is called).
    /// On Apple's platforms the trust challenge exists, but the transport does not answer it
    /// with these settings yet.
    static let tls = MoyaClientError.unsupportedSetting(
        "a custom TLS configuration or server trust policy",
        reason: reason
    )

    /// A proxy the configuration names itself (`Session.Configuration.asyncHTTPClient.proxy`):
    /// URLSession takes its proxies from the system's settings (on Linux, from the environment,
    /// as curl does).
    static let proxy = MoyaClientError.unsupportedSetting(
        "an explicit proxy (Session.Configuration.asyncHTTPClient.proxy)",
        reason: "URLSession takes its proxies from the system's settings, on Linux from the environment's "
            + "variables; use the AsyncHTTPClient transport to name one"
    )

    #if canImport(FoundationNetworking)
    private static let reason =
        "URLSession verifies certificates against the system's trust roots only, and on this platform "
        + "asks no delegate about a server's trust"
    #else
    private static let reason = "the URLSession transport does not evaluate server trust with these settings yet"
    #endif
}
