#if OpenAPI
import Foundation
import HTTPTypes
import Moya

/// Header fields between the runtime's `HTTPFields` and Moya's: targets' header dictionaries
/// and responses' heads.
enum HTTPFieldsConversion {
    /// Fields the session sets from the body it sends: a value copied from the runtime could
    /// disagree with it (a body spooled to a file is sent with the file's length).
    private static let sessionOwned: Set<HTTPField.Name> = [.contentLength, .transferEncoding]

    /// The request's fields as a target's `headers`. Repeated fields are joined with `, `, as
    /// RFC 9110 section 5.3 allows for every field a request may repeat, except `Cookie`,
    /// whose lines are joined with `; ` (RFC 6265 section 5.4).
    static func headers(of fields: HTTPFields) -> [String: String] {
        var headers: [String: String] = [:]
        for name in Set(fields.map(\.name)) where !sessionOwned.contains(name) {
            let separator = name == .cookie ? "; " : ", "
            headers[name.rawName] = fields[values: name].joined(separator: separator)
        }
        return headers
    }

    /// The runtime's response head for a Moya response: its fields one per line as received
    /// (a response built from an `HTTPURLResponse`, a stub's, gives one line per name). Reading
    /// them does not build the `HTTPURLResponse`, which would cost more on Linux than the rest of
    /// the request. A name or value that `HTTPFields` refuses (which a server's bytes could
    /// hold) is dropped rather than failing the call; a status `HTTPResponse` cannot hold (a
    /// stub's or a fixture's) is `nil`.
    static func response(of response: Moya.Response) -> HTTPResponse? {
        // `HTTPResponse.Status` traps outside this range.
        guard (0...999).contains(response.statusCode) else { return nil }
        var fields = HTTPFields()
        response.forEachHeaderField { name, value in
            guard let name = HTTPField.Name(name) else { return }
            fields.append(HTTPField(name: name, value: value))
        }
        return HTTPResponse(status: HTTPResponse.Status(code: response.statusCode), headerFields: fields)
    }

    /// The body's length as the runtime states it: known when the response says so.
    static func bodyLength(in response: HTTPResponse) -> Int64? {
        response.headerFields[.contentLength].flatMap { Int64($0) }.flatMap { $0 >= 0 ? $0 : nil }
    }
}
#endif
