import Foundation
import NIOHTTP1

/// Represents a response to a `MoyaProvider.request`.
public final class Response: CustomDebugStringConvertible, Equatable, Sendable {
    /// The status code of the response.
    public let statusCode: Int

    /// The response data.
    public let data: Data

    /// The original URLRequest for the response.
    public let request: URLRequest?

    /// The HTTPURLResponse object.
    public var response: HTTPURLResponse? {
        withHead { head in
            switch head {
            case .built(let response):
                return response
            case let .received(received, url):
                let response = HTTPRequestConversion.makeHTTPURLResponse(received, url: url)
                head = .built(response)
                return response
            }
        }
    }

    /// The response head, as an `HTTPURLResponse` or as received. On Linux, building an
    /// `HTTPURLResponse` costs more than the rest of a request's handling, and many callers
    /// read only the status code and the body: it is built the first time it is asked for.
    private enum Head: Sendable {
        case built(HTTPURLResponse?)
        case received(HTTPResponseHead, URL)
    }

    /// A head given as an `HTTPURLResponse` (or none) never changes, and needs no lock; a
    /// head as received becomes one on first use, under a lock. A stub's response, made for
    /// one request and often read once, so saves the lock (an allocation, where the lock is
    /// not stored inline: see `InlineLock`).
    private enum HeadStorage: ~Copyable, Sendable {
        case fixed(HTTPURLResponse?)
        case lazy(InlineLock<Head>)
    }

    private let head: HeadStorage

    /// The values of the header field `name`, one per field line as received when the head has
    /// not been built into an `HTTPURLResponse` (without building it: see `Head`), else the
    /// built response's joined value.
    func headerValues(named name: String) -> [String] {
        withHead { head in
            switch head {
            case .built(let response):
                return response?.value(forHTTPHeaderField: name).map { [$0] } ?? []
            case .received(let received, _):
                return received.headers[name]
            }
        }
    }

    /// Runs `body` on the head: under the lock when it may change.
    private func withHead<T>(_ body: (inout Head) -> T) -> T {
        switch head {
        case .fixed(let response):
            var fixed = Head.built(response)
            return body(&fixed)
        case .lazy(let lock):
            return lock.withLockedValue(body)
        }
    }

    /// Where a download task's file was moved to; `nil` for other tasks.
    public let fileURL: URL?

    /// Whether the response came from the network or from the session's `HTTPCache`, and its
    /// age when cached. `.network` whenever no cache is configured.
    public let cacheStatus: CacheStatus

    /// Creates a response.
    public init(statusCode: Int, data: Data, request: URLRequest? = nil, response: HTTPURLResponse? = nil) {
        self.statusCode = statusCode
        self.data = data
        self.request = request
        self.head = .fixed(response)
        self.fileURL = nil
        self.cacheStatus = .network
    }

    /// Creates the response to a request sent over the network.
    init(
        head: HTTPResponseHead,
        url: URL,
        data: Data,
        request: URLRequest?,
        fileURL: URL?,
        cacheStatus: CacheStatus = .network
    ) {
        self.statusCode = Int(head.status.code)
        self.data = data
        self.request = request
        self.head = .lazy(InlineLock(.received(head, url)))
        self.fileURL = fileURL
        self.cacheStatus = cacheStatus
    }

    private init(copying other: Response, cacheStatus: CacheStatus, fileURL: URL?) {
        statusCode = other.statusCode
        data = other.data
        request = other.request
        switch other.head {
        case .fixed(let response):
            head = .fixed(response)
        case .lazy(let lock):
            head = .lazy(InlineLock(lock.withLockedValue { $0 }))
        }
        self.fileURL = fileURL
        self.cacheStatus = cacheStatus
    }

    /// The same response, with another cache status.
    func with(cacheStatus: CacheStatus) -> Response {
        Response(copying: self, cacheStatus: cacheStatus, fileURL: fileURL)
    }

    /// The same response, saying where its body was saved (a resumable download's file).
    func with(fileURL: URL) -> Response {
        Response(copying: self, cacheStatus: cacheStatus, fileURL: fileURL)
    }

    /// The head as received, for the cache to store: status, header fields and final URL.
    var receivedHead: (head: HTTPResponseHead, url: URL)? {
        withHead { head in
            switch head {
            case let .received(received, url):
                return (received, url)
            case .built(let response):
                guard let response, let url = response.url else { return nil }
                var headers = HTTPHeaders()
                for (name, value) in response.allHeaderFields {
                    guard let name = name as? String, let value = value as? String,
                        HeaderSyntax.problem(name: name, value: value) == nil
                    else { continue }
                    headers.add(name: name, value: value)
                }
                let status = HTTPResponseStatus(statusCode: response.statusCode)
                return (HTTPResponseHead(version: .http1_1, status: status, headers: headers), url)
            }
        }
    }

    /// Hands `body` every header field: one per field line as received, without building the
    /// `HTTPURLResponse` (about 115,000 instructions on Linux), or the fields of the one given.
    package func forEachHeaderField(_ body: (_ name: String, _ value: String) -> Void) {
        withHead { head in
            switch head {
            case .built(let response):
                for case let (name as String, value as String) in response?.allHeaderFields ?? [:] {
                    body(name, value)
                }
            case .received(let received, _):
                for (name, value) in received.headers {
                    body(name, value)
                }
            }
        }
    }

    /// Every value of the header `name` (case-insensitive), in order, as received.
    func values(forHeader name: String) -> [String] {
        withHead { head in
            switch head {
            case .built(let response):
                return response?.value(forHTTPHeaderField: name).map { [$0] } ?? []
            case .received(let received, _):
                return received.headers[name]
            }
        }
    }

    /// A text representation of the `Response`.
    public var description: String {
        "Status Code: \(statusCode), Data Length: \(data.count)"
    }

    /// A text representation of the `Response`. Suitable for debugging.
    public var debugDescription: String { description }

    /// Responses are equal when their status codes, data and HTTP responses are equal.
    public static func == (lhs: Response, rhs: Response) -> Bool {
        lhs.statusCode == rhs.statusCode
            && lhs.data == rhs.data
            && lhs.response == rhs.response
    }
}

/// Moya's `Response` under a name no server framework uses.
///
/// Hummingbird and Vapor export a `Response` of their own, and in a file that imports one of
/// them beside Moya, a bare `Response` may silently be the framework's: a plugin's
/// `didReceive(_ result: Result<Response, MoyaError>, target:)` then compiles as an overload
/// that is never called. Write `MoyaResponse` (or `Moya.Response`) in such files, and write a
/// plugin's hooks in the extension that declares its `PluginType` conformance, where Swift
/// warns about a hook whose types do not match.
public typealias MoyaResponse = Response
