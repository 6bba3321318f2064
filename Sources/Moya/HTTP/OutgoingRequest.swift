import Foundation

/// The last checks before a request goes on the wire, the same for every transport: an http(s)
/// URL with a host, a method and headers that cannot corrupt the request (the session's
/// included), and the session's headers added where the request does not set the same name.
enum OutgoingRequest {
    /// `request`'s URL, when it is http or https with a host.
    ///
    /// - Throws: `MoyaError.requestMapping` otherwise.
    static func url(of request: URLRequest) throws -> URL {
        // The host as written: decoding it, which `host` does, is not needed to tell it is there.
        guard let url = request.url, let scheme = url.scheme, isHTTPScheme(scheme),
            url.host(percentEncoded: true)?.isEmpty == false
        else {
            throw MoyaError.requestMapping(request.url?.absoluteString ?? "")
        }
        return url
    }

    /// Checks `request`'s method and every header, then hands each field to send to `add`: the
    /// request's own (`fromSession` `false`), then the session's it does not set.
    ///
    /// The session's headers were checked once, when they were made; only their verdict is read
    /// here.
    ///
    /// - Throws: `MoyaClientError` (`invalidMethod`, `invalidHeader`) for a method or a header
    ///   (the session's included, even one the request overrides) that would corrupt the request.
    static func checkFields(
        of request: URLRequest,
        sessionHeaders: SessionHeaders,
        _ add: (_ name: String, _ value: String, _ fromSession: Bool) -> Void
    ) throws {
        if let problem = HeaderSyntax.problem(method: request.httpMethod ?? "GET") {
            throw problem
        }
        let fields = request.allHTTPHeaderFields ?? [:]
        for (name, value) in fields {
            if let problem = HeaderSyntax.problem(name: name, value: value) {
                throw problem
            }
            add(name, value, false)
        }
        if let problem = sessionHeaders.problem {
            throw problem
        }
        for (name, value) in sessionHeaders.fields {
            // Not `HTTPHeaders.contains(name:)`: it folds case by clearing bit 5 of every byte,
            // so it also takes "^" for "~" and would drop a session header the request lacks.
            if fields.isEmpty || !fields.keys.contains(where: { HeaderValidation.isSameName($0, name) }) {
                add(name, value, true)
            }
        }
    }

    /// Whether `scheme` is `http` or `https`, in any case, without making a lowercased copy.
    private static func isHTTPScheme(_ scheme: String) -> Bool {
        HeaderValidation.isSameName(scheme, "https") || HeaderValidation.isSameName(scheme, "http")
    }
}
