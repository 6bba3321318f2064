import Foundation
import NIOConcurrencyHelpers
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
        head.withLockedValue { head in
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

    private let head: NIOLockedValueBox<Head>

    /// Where a download task's file was moved to; `nil` for other tasks.
    public let fileURL: URL?

    /// Creates a response.
    public init(statusCode: Int, data: Data, request: URLRequest? = nil, response: HTTPURLResponse? = nil) {
        self.statusCode = statusCode
        self.data = data
        self.request = request
        self.head = NIOLockedValueBox(.built(response))
        self.fileURL = nil
    }

    /// Creates the response to a request sent over the network.
    init(head: HTTPResponseHead, url: URL, data: Data, request: URLRequest?, fileURL: URL?) {
        self.statusCode = Int(head.status.code)
        self.data = data
        self.request = request
        self.head = NIOLockedValueBox(.received(head, url))
        self.fileURL = fileURL
    }

    /// Every value of the header `name` (case-insensitive), in order, as received.
    func values(forHeader name: String) -> [String] {
        head.withLockedValue { head in
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
