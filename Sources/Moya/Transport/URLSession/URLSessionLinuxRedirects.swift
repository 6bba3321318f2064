#if canImport(FoundationNetworking)
import Foundation
import FoundationNetworking

/// What URLSession on Linux leaves out of the request it follows a redirect with, put back as
/// URLSession on Apple's platforms sends it: the cookies the redirect itself set. Checked
/// against a loopback server, FoundationNetworking stores them but sends the next hop without
/// them (a login answered `303` with `Set-Cookie` lands on its page logged out).
///
/// It also follows a `307` or `308` without the body it must send again; a body set on the
/// request returned here is not sent either (tried), since an upload task's body is the task's.
/// That one stays a limit of the URLSession transport on Linux (the Linux and Server article).
enum URLSessionLinuxRedirects {
    /// Completes `next`, the request URLSession proposes after `response` to `original`.
    static func complete(
        _ next: inout URLRequest,
        after response: HTTPURLResponse,
        of original: URLRequest,
        settings: URLSessionTransport.Settings
    ) {
        guard let storage = settings.cookieStorage, original.httpShouldHandleCookies, let url = response.url else {
            return
        }
        let cookies = RedirectCookies(
            jar: CookieJar.jar(for: storage),
            logger: nil,
            sendsStored: original.value(forHTTPHeaderField: "Cookie") == nil
        )
        // URLSession joins repeated fields with ", ", which Foundation's cookie parser splits.
        let fields = response.value(forHTTPHeaderField: "Set-Cookie").map { [$0] } ?? []
        cookies.hop(setting: fields, from: url, to: &next)
    }
}
#endif
