import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// Converts between Foundation's request and response types and AsyncHTTPClient's.
enum HTTPRequestConversion {
    /// Why a request could not be converted.
    struct UnsupportedURL: Error, CustomStringConvertible, LocalizedError {
        let url: String
        var description: String { "The URL \(url) is not an http or https URL with a host." }
        var errorDescription: String? { description }
    }

    /// The AsyncHTTPClient request for `request`, with `sessionHeaders` for the headers the
    /// request does not set, and `body` as its body.
    ///
    /// - Throws: `MoyaError.requestMapping` for a URL that is not http(s) with a host;
    ///   `HeaderValidation.InvalidMethod` or `InvalidHeader` for a method or a header (the
    ///   session's included) that would corrupt the request on the wire.
    static func makeRequest(
        _ request: URLRequest,
        sessionHeaders: [String: String],
        body: HTTPClient.Body?
    ) throws -> HTTPClient.Request {
        guard let url = request.url, let scheme = url.scheme, isHTTPScheme(scheme), url.host?.isEmpty == false
        else {
            throw MoyaError.requestMapping(request.url?.absoluteString ?? "")
        }
        let method = request.httpMethod ?? "GET"
        if let problem = HeaderSyntax.problem(method: method) {
            throw problem
        }
        // Checked before `HTTPHeaders.add`, which traps on a name that is not ASCII. The
        // pipeline has checked the request's own headers already, but this is the last step
        // before the wire, and `HeaderSyntax` makes a second look cheap; the session's headers
        // are checked only here, all of them, including those the request overrides.
        let fields = request.allHTTPHeaderFields ?? [:]
        var headers = HTTPHeaders()
        headers.reserveCapacity(fields.count + sessionHeaders.count)
        for (name, value) in fields {
            if let problem = HeaderSyntax.problem(name: name, value: value) {
                throw problem
            }
            headers.add(name: name, value: value)
        }
        for (name, value) in sessionHeaders {
            if let problem = HeaderSyntax.problem(name: name, value: value) {
                throw problem
            }
            // Not `HTTPHeaders.contains(name:)`: it folds case by clearing bit 5 of every byte,
            // so it also takes "^" for "~" and would drop a session header the request lacks.
            if !headers.contains(where: { HeaderValidation.isSameName($0.name, name) }) {
                headers.add(name: name, value: value)
            }
        }
        return try HTTPClient.Request(
            url: url,
            method: HTTPMethod(rawValue: method),
            headers: headers,
            body: body
        )
    }

    /// Whether `scheme` is `http` or `https`, in any case, without making a lowercased copy.
    private static func isHTTPScheme(_ scheme: String) -> Bool {
        HeaderValidation.isSameName(scheme, "https") || HeaderValidation.isSameName(scheme, "http")
    }

    /// Foundation's response for a received head. Repeated fields are joined with `", "`, as
    /// `HTTPURLResponse` holds one value per name.
    static func makeHTTPURLResponse(_ head: HTTPResponseHead, url: URL) -> HTTPURLResponse? {
        var fields: [String: String] = [:]
        for (name, value) in head.headers {
            if let existing = fields[name] {
                fields[name] = existing + ", " + value
            } else {
                fields[name] = value
            }
        }
        return HTTPURLResponse(
            url: url,
            statusCode: Int(head.status.code),
            httpVersion: "\(head.version)",
            headerFields: fields
        )
    }
}
