#if OpenAPI
import Foundation
import HTTPTypes
import Moya
import OpenAPIRuntime

/// A `ClientTransport` that sends a generated client's operations through a `MoyaProvider`.
///
/// Each operation becomes a request of `provider`, whose target, an `OpenAPIOperation`, is
/// named after the operation's `operationID`. So the generated client gets everything the
/// provider brings, with no change to the generated code: its plugins (`NetworkLoggerPlugin`,
/// `AccessTokenPlugin`, `TracingPlugin`, `MetricsPlugin`, your own), its interceptor
/// (`RetryPolicy`, `AuthenticationInterceptor`), its session (cache, TLS pinning, timeouts,
/// proxy) and its stubs, including `MoyaTesting`'s `Recorder`.
///
/// ```swift
/// let provider = MoyaProvider<OpenAPIOperation>(plugins: [NetworkLoggerPlugin()], interceptor: RetryPolicy())
/// let client = Client(serverURL: try Servers.Server1.url(), transport: MoyaTransport(provider: provider))
/// let greeting = try await client.getGreeting(path: .init(name: "Ada")).ok.body.json
/// ```
///
/// Request bodies are read once: into memory up to `Configuration.requestBodyMemoryLimit`,
/// into a temporary file past it, then sent (and sent again for a retry) from there. Responses
/// come whole or streamed, as `Configuration.delivery` decides (see `ResponseDelivery`);
/// a streamed body is paced by the generated client's reading, so a large download stays in
/// bounded memory.
///
/// Errors are `MoyaError`s, which the runtime wraps in its `ClientError` (as
/// `underlyingError`; its description includes the `MoyaError`'s). Cancelling the calling task
/// cancels the request, while it waits for the response and while its body is read.
public struct MoyaTransport: ClientTransport {
    /// The provider every operation is sent through.
    public let provider: MoyaProvider<OpenAPIOperation>

    /// How request and response bodies are handled.
    public let configuration: Configuration

    /// Creates a transport sending through `provider`.
    ///
    /// - Parameters:
    ///   - provider: The provider to send through: its plugins, interceptor, session and stubs
    ///     apply to every operation.
    ///   - configuration: How bodies are handled; the defaults suit most clients.
    public init(provider: MoyaProvider<OpenAPIOperation>, configuration: Configuration = Configuration()) {
        self.provider = provider
        self.configuration = configuration
    }

    /// Sends one operation's request through the provider.
    ///
    /// - Throws: `MoyaError`: the provider's error, `.underlying` with the error reading the
    ///   request body or spooling it, or `.requestMapping` when the request's path does not
    ///   make a URL with `baseURL`.
    public func send(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let operation = try await makeOperation(request, body: body, baseURL: baseURL, operationID: operationID)
        switch configuration.delivery(operation) {
        case .buffered:
            let response = try await provider.request(operation)
            let head = try Self.head(of: response)
            return (head, Self.hasBody(request, head) ? HTTPBody(response.data) : nil)
        case .streamed:
            let streamed = try await provider.stream(operation)
            let head = try Self.head(of: streamed.head)
            guard Self.hasBody(request, head) else { return (head, nil) }
            let length = HTTPFieldsConversion.bodyLength(in: head).map(HTTPBody.Length.known) ?? .unknown
            let sequence = ResponseBodySequence(chunks: streamed.chunks, operation: operation)
            return (head, HTTPBody(sequence, length: length, iterationBehavior: .single))
        }
    }

    /// The operation's target, with its body gathered.
    private func makeOperation(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String
    ) async throws(MoyaError) -> OpenAPIOperation {
        guard let url = Self.url(of: request, baseURL: baseURL) else {
            throw MoyaError.requestMapping(baseURL.absoluteString + (request.path ?? ""))
        }
        var gathered: RequestBodySpool.Body?
        if let body {
            do {
                gathered = try await configuration.spool.gather(body)
            } catch let error as MoyaError {
                throw error
            } catch {
                throw MoyaError.underlying(error, nil)
            }
        }
        return OpenAPIOperation(operationID: operationID, request: request, url: url, body: gathered)
    }

    /// `baseURL` with the request's path appended to its own and the request's query, both
    /// kept as the generated code percent-encoded them.
    static func url(of request: HTTPRequest, baseURL: URL) -> URL? {
        let base = baseURL.absoluteString
        let path = request.path ?? ""
        // The common case, a server URL without query or fragment and a path from the root,
        // joined as text and parsed once: the three `URLComponents` below cost more on Linux
        // than the rest of the operation's mapping. Only a string that is a URL as it is
        // qualifies, so that both ways give the same URL.
        let joined = base.hasSuffix("/") ? base + path.dropFirst() : base + path
        if path.first == "/", !path.contains("#"), !base.contains(where: { $0 == "?" || $0 == "#" }),
            #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *),
            let url = URL(string: joined, encodingInvalidCharacters: false)
        {
            return url
        }
        guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: true),
            let target = URLComponents(string: request.path ?? "")
        else { return nil }
        let basePath = components.percentEncodedPath
        let targetPath = target.percentEncodedPath
        // One slash between the two, whether the server URL ends with one or not.
        components.percentEncodedPath =
            basePath.hasSuffix("/") && targetPath.hasPrefix("/")
            ? basePath + targetPath.dropFirst() : basePath + targetPath
        components.percentEncodedQuery = target.percentEncodedQuery
        return components.url
    }

    /// The response head as the runtime's type.
    private static func head(of response: Moya.Response) throws(MoyaError) -> HTTPResponse {
        guard let head = HTTPFieldsConversion.response(of: response)
        else {
            throw MoyaError.underlying(StatusCodeOutOfRange(statusCode: response.statusCode), response)
        }
        return head
    }

    /// Whether the runtime should see a body: none for `HEAD`, nor for statuses that never
    /// carry one (RFC 9110 section 6.4.1).
    private static func hasBody(_ request: HTTPRequest, _ response: HTTPResponse) -> Bool {
        request.method != .head && response.status.kind != .informational && response.status.code != 204
            && response.status.code != 304
    }
}

extension MoyaTransport {
    /// A response whose status is outside `0...999`, which `HTTPResponse` cannot hold: a
    /// stub's or a fixture's, since a server's status line has three digits.
    public struct StatusCodeOutOfRange: Error, CustomStringConvertible, LocalizedError {
        /// The status code received.
        public let statusCode: Int

        /// Says which status was received.
        public var description: String {
            "The status code \(statusCode) is outside 0...999, so an OpenAPI client cannot receive it."
        }

        /// The same text as `description`.
        public var errorDescription: String? { description }
    }
}
#endif
