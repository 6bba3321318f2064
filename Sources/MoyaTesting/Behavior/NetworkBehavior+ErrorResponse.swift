import Foundation
import Moya

extension NetworkBehavior {
    /// The response a behaviour answers with when it draws an error: a status code, headers
    /// and a body of your choice, as a server would send them.
    public struct ErrorResponse: Sendable, Equatable {
        /// The HTTP status code.
        public var statusCode: Int

        /// The response's header fields.
        public var headers: [String: String]

        /// The body.
        public var body: Data

        /// Creates an error response.
        ///
        /// - Parameters:
        ///   - statusCode: The HTTP status code. Defaults to 500.
        ///   - headers: The response's header fields.
        ///   - body: The body.
        public init(statusCode: Int = 500, headers: [String: String] = [:], body: Data = Data()) {
            self.statusCode = statusCode
            self.headers = headers
            self.body = body
        }

        /// The sample response, reporting `url` as a response from the network would.
        func sampleResponse(url: URL?) -> EndpointSampleResponse {
            .response(statusCode: statusCode, headers: headers, data: body, url: url)
        }
    }
}
