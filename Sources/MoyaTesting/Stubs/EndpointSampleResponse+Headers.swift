import Foundation
import Moya

extension EndpointSampleResponse {
    /// A response with headers, as the network delivers it: `Response.response` is an
    /// `HTTPURLResponse` carrying `statusCode` and `headers`.
    ///
    /// - Parameters:
    ///   - statusCode: The HTTP status code.
    ///   - headers: The response's header fields.
    ///   - data: The body.
    ///   - url: The URL the response reports; pass the endpoint's. Defaults to `http://localhost/`.
    public static func response(
        statusCode: Int,
        headers: [String: String] = [:],
        data: Data = Data(),
        url: URL? = nil
    ) -> EndpointSampleResponse {
        guard let url = url ?? URL(string: "http://localhost/"),
            let response = HTTPURLResponse(
                url: url,
                statusCode: statusCode,
                httpVersion: "HTTP/1.1",
                headerFields: headers
            )
        else {
            return .networkResponse(statusCode, data)
        }
        return .response(response, data)
    }

    /// A JSON response: `text` as the body, with `Content-Type: application/json` unless
    /// `headers` name another.
    ///
    /// - Parameters:
    ///   - text: The JSON body.
    ///   - statusCode: The HTTP status code. Defaults to 200.
    ///   - headers: More header fields.
    ///   - url: The URL the response reports; pass the endpoint's. Defaults to `http://localhost/`.
    public static func json(
        _ text: String,
        statusCode: Int = 200,
        headers: [String: String] = [:],
        url: URL? = nil
    ) -> EndpointSampleResponse {
        var fields = headers
        if !fields.keys.contains(where: { $0.caseInsensitiveCompare("Content-Type") == .orderedSame }) {
            fields["Content-Type"] = "application/json"
        }
        return response(statusCode: statusCode, headers: fields, data: Data(text.utf8), url: url)
    }
}
