import Foundation
import Moya

/// A request as a provider sent it (or stubbed it), captured by `RequestRecorder`.
///
/// Its members answer the usual questions of a test in one line each:
///
/// ```swift
/// let sent = try #require(requests.last)
/// #expect(sent.method == .post)
/// #expect(sent.url?.path == "/users")
/// #expect(sent.header("Authorization") == "Bearer t0ken")
/// #expect(sent.bodyText == #"{"name":"moya"}"#)
/// #expect(sent.parts.map(\.name) == ["avatar", "caption"])
/// ```
///
/// - Note: `@unchecked Sendable` because `target` is the user's, and Moya does not require
///   targets to be `Sendable`. A record is immutable once made, so a test may read it from any
///   task; a target that is a class with mutable state is the test's own to share safely.
public struct SentRequest: @unchecked Sendable {
    /// One part of a multipart body.
    public struct Part: Sendable, Equatable {
        /// The form field's name.
        public let name: String
        /// The file name the part announces, if any.
        public let fileName: String?
        /// The part's content type, if any.
        public let mimeType: String?
        /// The part's bytes when they were given in memory; `nil` for file and stream parts.
        public let data: Data?
        /// The file the part's bytes were read from, for a file part.
        public let fileURL: URL?
    }

    /// The target the request was made for.
    public let target: TargetType

    /// The request, after the plugins prepared it.
    public let request: URLRequest

    /// The HTTP method.
    public let method: Moya.Method

    /// The URL, with its query.
    public let url: URL?

    /// The header fields: the request's, over the session's defaults.
    public let headers: [String: String]

    /// The body, when the request carries it in memory; `nil` for uploads, which stream theirs.
    public let body: Data?

    /// The parts of a multipart upload, in order; empty for other tasks.
    public let parts: [Part]

    /// The file of a `.uploadFile` task.
    public let uploadFileURL: URL?

    /// Captures `request`, sent for `target` with the session's `sessionHeaders`.
    public init(request: URLRequest, target: TargetType, sessionHeaders: [String: String] = [:]) {
        self.target = target
        self.request = request
        self.method = Moya.Method(rawValue: (request.httpMethod ?? "GET").uppercased())
        self.url = request.url
        var headers = request.allHTTPHeaderFields ?? [:]
        for (name, value) in sessionHeaders
        where !headers.keys.contains(where: { $0.caseInsensitiveCompare(name) == .orderedSame }) {
            headers[name] = value
        }
        self.headers = headers
        self.body = request.httpBody
        switch target.task {
        case .uploadMultipart(let parts), .uploadCompositeMultipart(let parts, _):
            self.parts = parts.map(Part.init)
            self.uploadFileURL = nil
        case .uploadFile(let url):
            self.parts = []
            self.uploadFileURL = url
        default:
            self.parts = []
            self.uploadFileURL = nil
        }
    }
}

extension SentRequest.Part {
    init(_ part: MultipartFormData) {
        name = part.name
        mimeType = part.mimeType
        switch part.provider {
        case .data(let bytes):
            data = bytes
            fileURL = nil
            fileName = part.fileName
        case .file(let url):
            data = nil
            fileURL = url
            // The encoder announces the file's own name when the part gives none.
            fileName = part.fileName ?? url.lastPathComponent
        case .stream:
            data = nil
            fileURL = nil
            fileName = part.fileName
        }
    }
}
