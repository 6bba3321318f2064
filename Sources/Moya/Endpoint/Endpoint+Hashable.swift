import Foundation

/// Two endpoints are equal when they build the same `URLRequest` and, for uploads, send the
/// same file or parts. This is what in-flight tracking uses to decide that two calls can share
/// one request. Download destinations are closures and cannot be compared: two downloads of
/// the same request are considered equal, as in Moya.
extension Endpoint: Equatable, Hashable {
    /// Hashes the request the endpoint builds (or its URL when it cannot build one).
    public func hash(into hasher: inout Hasher) {
        if let request = try? urlRequest() {
            hasher.combine(request)
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
            return lhsRequest == rhsRequest
        case (.none, .none):
            return lhs.url == rhs.url && lhs.method == rhs.method && lhs.httpHeaderFields == rhs.httpHeaderFields
        default:
            return false
        }
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
