import Foundation

/// Which secrets a `Recorder` keeps out of its fixture files, and what it writes in their place.
///
/// The values of `Authorization`, `Proxy-Authorization`, `Cookie` and `Set-Cookie` are always
/// replaced. Name more headers, query parameters and JSON fields (in request and response
/// bodies, at any depth) to replace theirs too. Names are compared case-insensitively.
///
/// Fixture names are computed from the redacted request, so a fixture recorded with one secret
/// is found again when the test runs with another one, or with none.
public struct Redaction: Sendable, Equatable {
    /// The headers whose values never reach a fixture, whatever else is named.
    public static let alwaysRedactedHeaders: Set<String> = [
        "Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie",
    ]

    /// Extra header names whose values are replaced, in requests and responses.
    public var headers: Set<String>

    /// Query parameter names whose values are replaced in URLs (and in form-encoded bodies).
    public var queryParameters: Set<String>

    /// JSON object keys whose values are replaced in request and response bodies.
    public var jsonFields: Set<String>

    /// What a secret value is replaced with.
    public var placeholder: String

    /// Creates a redaction.
    ///
    /// - Parameters:
    ///   - headers: Header names to redact on top of `alwaysRedactedHeaders`.
    ///   - queryParameters: Query (and form body) parameter names to redact.
    ///   - jsonFields: JSON object keys to redact, at any depth.
    ///   - placeholder: The text written instead of a secret.
    public init(
        headers: Set<String> = [],
        queryParameters: Set<String> = [],
        jsonFields: Set<String> = [],
        placeholder: String = "<redacted>"
    ) {
        self.headers = headers
        self.queryParameters = queryParameters
        self.jsonFields = jsonFields
        self.placeholder = placeholder
    }
}
