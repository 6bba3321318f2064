import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// Converts between Foundation's request and response types and AsyncHTTPClient's.
enum HTTPRequestConversion {
    /// The AsyncHTTPClient request for `request`, with `sessionHeaders` for the headers the
    /// request does not set, and `body` as its body.
    ///
    /// - Throws: `MoyaError.requestMapping` for a URL that is not http(s) with a host;
    ///   `MoyaClientError` (`invalidMethod`, `invalidHeader`) for a method or a header (the
    ///   session's included) that would corrupt the request on the wire.
    static func makeRequest(
        _ request: URLRequest,
        sessionHeaders: SessionHeaders,
        body: HTTPClient.Body?
    ) throws -> HTTPClient.Request {
        let url = try OutgoingRequest.url(of: request)
        // Checked before `HTTPHeaders.add`, which traps on a name that is not ASCII. The
        // pipeline has checked the request's own headers already, but this is the last step
        // before the wire, and `HeaderSyntax` makes a second look cheap.
        var headers = HTTPHeaders()
        headers.reserveCapacity((request.allHTTPHeaderFields?.count ?? 0) + sessionHeaders.count)
        try OutgoingRequest.checkFields(of: request, sessionHeaders: sessionHeaders) { name, value, _ in
            headers.add(name: name, value: value)
        }
        return try HTTPClient.Request(
            url: url,
            method: HTTPMethod(rawValue: request.httpMethod ?? "GET"),
            headers: headers,
            body: body
        )
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
        return NamedHTTPURLResponse(
            url: url,
            statusCode: Int(head.status.code),
            httpVersion: "\(head.version)",
            headerFields: fields
        )
    }
}
