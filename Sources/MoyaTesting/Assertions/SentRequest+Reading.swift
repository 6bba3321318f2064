import Foundation

extension SentRequest {
    /// The value of header `name`, compared case-insensitively as HTTP does.
    public func header(_ name: String) -> String? {
        headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// The URL's path, `nil` without a URL.
    public var path: String? {
        url?.path
    }

    /// The URL's query items, decoded; empty without a query.
    public var queryItems: [URLQueryItem] {
        guard let url, let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return [] }
        return components.queryItems ?? []
    }

    /// The value of query parameter `name`; the first one when it repeats.
    public func queryValue(_ name: String) -> String? {
        queryItems.first { $0.name == name }?.value
    }

    /// The body as UTF-8 text; `nil` without a body or when it is not UTF-8.
    public var bodyText: String? {
        body.flatMap { String(data: $0, encoding: .utf8) }
    }

    /// The body parsed as JSON (`[String: Any]`, `[Any]` or a fragment); `nil` without a body or
    /// when it is not JSON.
    public var bodyJSON: Any? {
        body.flatMap { try? JSONSerialization.jsonObject(with: $0, options: [.fragmentsAllowed]) }
    }

    /// The body decoded as `type`.
    ///
    /// - Throws: `DecodingError` when the body does not decode, and
    ///   `DecodingError.valueNotFound` when there is no body.
    public func decodeBody<T: Decodable>(as type: T.Type, using decoder: JSONDecoder = JSONDecoder()) throws -> T {
        guard let body else {
            throw DecodingError.valueNotFound(type, .init(codingPath: [], debugDescription: "The request has no body."))
        }
        return try decoder.decode(type, from: body)
    }

    /// The body's form fields (`application/x-www-form-urlencoded`), decoded.
    public var formItems: [URLQueryItem] {
        guard let text = bodyText else { return [] }
        var components = URLComponents()
        components.percentEncodedQuery = text.replacingOccurrences(of: "+", with: "%20")
        return components.queryItems ?? []
    }
}
