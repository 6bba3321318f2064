import Foundation

/// What the logger shows of headers and responses, with the values that carry credentials
/// replaced.
enum HeaderRedaction {
    /// What a redacted value is replaced with.
    static let placeholder = "<redacted>"

    /// Headers that carry credentials, lower-cased.
    static let defaultHeaders: Set<String> = ["authorization", "proxy-authorization", "cookie", "set-cookie"]

    /// `value`, or the placeholder when `name` is one of `redacted` (lower-cased names).
    static func shown(_ value: String, named name: String, redacting redacted: Set<String>) -> String {
        redacted.contains(name.lowercased()) ? placeholder : value
    }

    /// The headers a request goes out with: the session's, overridden by the request's own.
    ///
    /// Names are compared case-insensitively, as HTTP does, so a request's `accept` replaces the
    /// session's `Accept` instead of appearing next to it. The result is sorted by name so that
    /// the same request always reads the same in a log.
    static func merged(
        session: [String: String],
        request: [String: String],
        redacting redacted: Set<String>
    ) -> [(name: String, value: String)] {
        var byLowercasedName: [String: (name: String, value: String)] = [:]
        for (name, value) in session {
            byLowercasedName[name.lowercased()] = (name, value)
        }
        for (name, value) in request {
            byLowercasedName[name.lowercased()] = (name, value)
        }
        return byLowercasedName.keys.sorted().compactMap { key in
            byLowercasedName[key].map { ($0.name, shown($0.value, named: $0.name, redacting: redacted)) }
        }
    }

    /// `headers` written as `[String: String].description` writes a dictionary
    /// (`["Accept": "application/json"]`), which is how Moya logs them, in the given order.
    static func dictionaryDescription(_ headers: [(name: String, value: String)]) -> String {
        guard !headers.isEmpty else { return "[:]" }
        let pairs = headers.map { "\($0.name.debugDescription): \($0.value.debugDescription)" }
        return "[" + pairs.joined(separator: ", ") + "]"
    }

    /// A copy of `response` whose redacted header values and URL password are replaced, so
    /// that its `description` keeps the shape `HTTPURLResponse` prints without the secrets.
    ///
    /// Returns `nil` for a response without a URL, which cannot be copied.
    static func redacted(_ response: HTTPURLResponse, redacting redacted: Set<String>) -> HTTPURLResponse? {
        guard let url = response.url else { return nil }
        var headers: [String: String] = [:]
        for (name, value) in response.allHeaderFields {
            let name = "\(name)"
            headers[name] = shown("\(value)", named: name, redacting: redacted)
        }
        // The HTTP version is not readable from a response, and its description does not show it.
        return HTTPURLResponse(
            url: URLRedaction.hidingPassword(url),
            statusCode: response.statusCode,
            httpVersion: nil,
            headerFields: headers
        )
    }
}
