import Crypto
import Foundation

/// What makes two calls the same request for `trackInflights`, computed once per call, before
/// the in-flight table's lock is taken.
///
/// `Endpoint`'s `==` and `hash(into:)` answer the same question for users, but each builds the
/// endpoint's `URLRequest`, running the target's encoders; a dictionary keyed by endpoints
/// would run them again for every hash and comparison, inside the lock. The key holds what
/// goes on the wire instead: the method, the URL, the headers, a digest of the body (JSON
/// compared by content, see `BodyIdentity`), and what identifies uploaded parts and files.
struct InflightKey: Hashable, Sendable {
    /// A multipart part, by its headers and by where its bytes come from.
    private struct Part: Hashable, Sendable {
        var name: String
        var fileName: String?
        var mimeType: String?
        var source: Source
    }

    private enum Source: Hashable, Sendable {
        case data(SHA256.Digest)
        case file(URL)
        /// Streams have no content to compare: two parts share a request only with the very
        /// same stream object, which can be read once anyway. The identifier stays valid while
        /// the key is in the table: the entry's endpoint keeps the stream alive.
        case stream(ObjectIdentifier, length: UInt64)
    }

    private let method: String?
    private let url: URL?
    private let headers: [String: String]?
    private let body: SHA256.Digest?
    private let uploadFile: URL?
    private let parts: [Part]?
    /// For an endpoint that builds no request: what it was made from.
    private let unbuilt: String?

    init(_ endpoint: Endpoint) {
        if let request = try? endpoint.urlRequest() {
            method = request.httpMethod
            url = request.url
            headers = request.allHTTPHeaderFields
            body = BodyIdentity.canonical(request.httpBody).map { SHA256.hash(data: $0) }
            unbuilt = nil
        } else {
            method = endpoint.method.rawValue
            url = nil
            headers = endpoint.httpHeaderFields
            body = nil
            unbuilt = endpoint.url
        }
        switch endpoint.task {
        case .uploadFile(let file):
            uploadFile = file
            parts = nil
        case .uploadMultipart(let multipart), .uploadCompositeMultipart(let multipart, _):
            uploadFile = nil
            parts = multipart.map(Self.part)
        default:
            uploadFile = nil
            parts = nil
        }
    }

    private static func part(_ part: MultipartFormData) -> Part {
        let source: Source
        switch part.provider {
        case .data(let data):
            source = .data(SHA256.hash(data: data))
        case .file(let url):
            source = .file(url)
        case let .stream(stream, length):
            source = .stream(ObjectIdentifier(stream), length: length)
        }
        return Part(name: part.name, fileName: part.fileName, mimeType: part.mimeType, source: source)
    }
}
