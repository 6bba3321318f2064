import Foundation

/// Represents a response to a `MoyaProvider.request`.
public final class Response: CustomDebugStringConvertible, Equatable, Sendable {
    /// The status code of the response.
    public let statusCode: Int

    /// The response data.
    public let data: Data

    /// The original URLRequest for the response.
    public let request: URLRequest?

    /// The HTTPURLResponse object.
    public let response: HTTPURLResponse?

    /// Where a download task's file was moved to; `nil` for other tasks.
    public let fileURL: URL?

    /// Creates a response.
    public init(statusCode: Int, data: Data, request: URLRequest? = nil, response: HTTPURLResponse? = nil) {
        self.statusCode = statusCode
        self.data = data
        self.request = request
        self.response = response
        self.fileURL = nil
    }

    /// Creates the response of a download.
    init(statusCode: Int, data: Data, request: URLRequest?, response: HTTPURLResponse?, fileURL: URL?) {
        self.statusCode = statusCode
        self.data = data
        self.request = request
        self.response = response
        self.fileURL = fileURL
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
