import Foundation

/// Renders a request as a `curl` command that can be pasted into a POSIX shell.
///
/// Every argument is single-quoted; a body that is not UTF-8 is written with ANSI-C quoting
/// (`$'\x..'`) so that the bytes survive the copy.
struct CURLCommand {
    var request: URLRequest
    var sessionHeaders: [String: String]
    var redactedHeaders: Set<String> = []

    func render() -> String {
        guard let url = request.url else { return "$ curl command could not be created" }

        var components = ["$ curl -v"]
        let method = request.httpMethod ?? "GET"
        if method != "GET" {
            components.append("-X \(Self.quote(method))")
        }

        for (name, value) in headers() {
            let shown = redactedHeaders.contains(name.lowercased()) ? HeaderRedaction.placeholder : value
            components.append("-H \(Self.quote("\(name): \(shown)"))")
        }

        if let body = request.httpBody, !body.isEmpty {
            if let text = String(data: body, encoding: .utf8) {
                components.append("--data-binary \(Self.quote(text))")
            } else {
                components.append("--data-binary \(Self.ansiQuote(body))")
            }
        }

        components.append(Self.quote(url.absoluteString))
        return components.joined(separator: " \\\n\t")
    }

    /// The request's headers over the session's, sorted by name for a stable rendering.
    private func headers() -> [(String, String)] {
        var merged: [String: (String, String)] = [:]
        for (name, value) in sessionHeaders {
            merged[name.lowercased()] = (name, value)
        }
        for (name, value) in request.allHTTPHeaderFields ?? [:] {
            merged[name.lowercased()] = (name, value)
        }
        return merged.keys.sorted().compactMap { merged[$0] }
    }

    static func quote(_ string: String) -> String {
        "'" + string.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    static func ansiQuote(_ data: Data) -> String {
        var result = "$'"
        for byte in data {
            result += String(format: "\\x%02x", byte)
        }
        return result + "'"
    }
}
