import Foundation

/// Two endpoints are equal when they build the same `URLRequest` and, for uploads, send the
/// same file or parts. This is what in-flight tracking uses to decide that two calls can share
/// one request. JSON bodies are compared by content, whatever the order of their keys (see
/// `BodyIdentity`). Download destinations are closures and cannot be compared: two downloads
/// of the same request are considered equal, as in Moya.
extension Endpoint: Equatable, Hashable {
    /// Hashes the request the endpoint builds (or its URL when it cannot build one).
    public func hash(into hasher: inout Hasher) {
        if let request = try? urlRequest() {
            hasher.combine(request.url)
            hasher.combine(request.httpMethod)
            hasher.combine(request.allHTTPHeaderFields)
            hasher.combine(BodyIdentity.canonical(request.httpBody))
        } else {
            hasher.combine(url)
        }
    }

    /// Whether both endpoints build the same request and upload the same content.
    public static func == (lhs: Endpoint, rhs: Endpoint) -> Bool {
        if lhs === rhs { return true }
        guard lhs.hasSameUploadContent(as: rhs) else { return false }
        switch (try? lhs.urlRequest(), try? rhs.urlRequest()) {
        case let (.some(lhsRequest), .some(rhsRequest)):
            return Self.sameRequest(lhsRequest, rhsRequest)
        case (.none, .none):
            return lhs.url == rhs.url && lhs.method == rhs.method && lhs.httpHeaderFields == rhs.httpHeaderFields
        default:
            return false
        }
    }

    /// Compares what goes on the wire. `URLRequest`'s own `==` cannot be used: on Linux it
    /// ignores the headers and the body, which would let requests with different bodies share
    /// one in-flight call.
    private static func sameRequest(_ lhs: URLRequest, _ rhs: URLRequest) -> Bool {
        lhs.url == rhs.url
            && lhs.httpMethod == rhs.httpMethod
            && lhs.allHTTPHeaderFields == rhs.allHTTPHeaderFields
            && sameBody(lhs.httpBody, rhs.httpBody)
    }

    /// Equal bytes are the same body without parsing anything; otherwise two JSON bodies may
    /// still differ only in the order of their keys.
    private static func sameBody(_ lhs: Data?, _ rhs: Data?) -> Bool {
        lhs == rhs || BodyIdentity.canonical(lhs) == BodyIdentity.canonical(rhs)
    }

    private func hasSameUploadContent(as other: Endpoint) -> Bool {
        switch (task, other.task) {
        case let (.uploadFile(lhsURL), .uploadFile(rhsURL)):
            return lhsURL == rhsURL
        case let (.uploadMultipart(lhsParts), .uploadMultipart(rhsParts)):
            return lhsParts == rhsParts
        case let (.uploadCompositeMultipart(lhsParts, _), .uploadCompositeMultipart(rhsParts, _)):
            // The URL parameters are part of the request's URL, compared with the request.
            return lhsParts == rhsParts
        case (.uploadFile, _), (.uploadMultipart, _), (.uploadCompositeMultipart, _),
            (_, .uploadFile), (_, .uploadMultipart), (_, .uploadCompositeMultipart):
            return false
        default:
            return true
        }
    }
}
