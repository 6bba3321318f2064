import Foundation

/// Renders a request as a `curl` command, in the layout Alamofire 5's `cURLDescription()` uses,
/// which Moya's users know from their logs (continuation lines start with a tab):
///
/// ```
/// $ curl -v \
///     -X POST \
///     -H "Content-Type: application/json" \
///     -d "{\"name\":\"Ada\"}" \
///     "https://api.example.test/users"
/// ```
///
/// Values are double-quoted as Alamofire quotes them: enough for ordinary headers and JSON
/// bodies, but `$`, backticks and backslashes reach the shell as they are.
struct CURLCommand {
    /// What `cURLDescription` gives when there is nothing to render.
    static let unavailable = "$ curl command could not be created"

    /// The request to render.
    var request: URLRequest
    /// The headers the session adds to every request; the request's own win.
    var sessionHeaders: [String: String]
    /// `nil` renders the request as it is sent. A set (lower-cased header names, possibly empty)
    /// renders it for a log: the values of those headers and the URL's password are replaced.
    var logRedaction: Set<String>? = nil

    func render() -> String {
        guard let url = request.url, url.host != nil, let method = request.httpMethod else {
            return Self.unavailable
        }

        var components = ["$ curl -v", "-X \(method)"]

        // Alamofire leaves `Cookie` out of the headers: cookies belong to a cookie store.
        let headers = HeaderRedaction.merged(
            session: sessionHeaders,
            request: request.allHTTPHeaderFields ?? [:],
            redacting: logRedaction ?? []
        ).filter { $0.name.lowercased() != "cookie" }
        for header in headers {
            let escapedValue = header.value.replacingOccurrences(of: "\"", with: "\\\"")
            components.append("-H \"\(header.name): \(escapedValue)\"")
        }

        if let body = request.httpBody {
            // Alamofire's order: an already escaped quote gains a backslash before every quote
            // is escaped.
            let text = String(decoding: body, as: UTF8.self)
            let escaped =
                text
                .replacingOccurrences(of: "\\\"", with: "\\\\\"")
                .replacingOccurrences(of: "\"", with: "\\\"")
            components.append("-d \"\(escaped)\"")
        }

        let shownURL = logRedaction == nil ? url : URLRedaction.hidingPassword(url)
        components.append("\"\(shownURL.absoluteString)\"")
        return components.joined(separator: " \\\n\t")
    }
}
