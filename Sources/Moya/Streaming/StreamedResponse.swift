import Foundation
import NIOConcurrencyHelpers

/// A response whose body arrives as it is sent: the head first, then the body in chunks.
///
/// Returned by `MoyaProvider.stream(_:)` once the head has arrived and passed the target's
/// `validationType`:
///
/// ```swift
/// let streamed = try await provider.stream(.export)
/// print(streamed.statusCode)
/// for try await chunk in streamed.chunks {
///     try file.write(contentsOf: chunk)
/// }
/// ```
public struct StreamedResponse: Sendable {
    /// The head of the response, as a `Response` with an empty body: status code, headers
    /// (through `response`) and the request that was sent. It is what plugins receive in
    /// `didReceive` when the stream ends.
    public let head: Response

    /// The body, chunk by chunk. It can be read once.
    public let chunks: ResponseChunks

    init(head: Response, chunks: ResponseChunks) {
        self.head = head
        self.chunks = chunks
    }

    /// The status code of the response.
    public var statusCode: Int { head.statusCode }

    /// The response head, with its header fields.
    public var response: HTTPURLResponse? { head.response }

    /// The request that was sent, after plugins and interceptors changed it.
    public var request: URLRequest? { head.request }

    /// The body read as a `text/event-stream`: its server-sent events, as they complete.
    ///
    /// This reads this one response; `MoyaProvider.events(_:reconnect:)` can also reconnect
    /// when it ends.
    ///
    /// - Parameter maximumEventSize: The largest event to accept, in bytes; a larger one ends
    ///   the stream with `MoyaClientError` `eventTooLarge`.
    public func events(
        maximumEventSize: Int = ServerSentEventParser.defaultMaximumEventSize
    ) -> EventStream {
        let once = TakeOnce(self)
        return EventStream(policy: .never, maximumEventSize: maximumEventSize) { _ throws(MoyaError) in
            guard let response = once.take() else {
                throw MoyaError.underlying(MoyaClientError.streamAlreadyConsumed, nil)
            }
            return response
        }
    }
}

/// Hands out its value once.
private final class TakeOnce: Sendable {
    private let value: NIOLockedValueBox<StreamedResponse?>

    init(_ value: StreamedResponse) {
        self.value = NIOLockedValueBox(value)
    }

    func take() -> StreamedResponse? {
        value.withLockedValue { value in
            defer { value = nil }
            return value
        }
    }
}
