import Foundation

/// What a stubbed stream answers: a status, headers, and its body as chunks, delays and an
/// optional failure, played in order.
///
/// Set one on an endpoint (`Endpoint.sampleStreamClosure`; MoyaTesting's
/// `Endpoint.replacing(sampleStream:)` does it in an endpoint closure) for `stream(_:)` and
/// `events(_:reconnect:)` on a stubbed provider. Without one, a stubbed stream answers the
/// endpoint's sample response, its data as one chunk.
public struct SampleStream: Sendable {
    /// One step of the body.
    public enum Part: Sendable {
        /// Bytes of the body.
        case chunk(Data)
        /// A pause, in seconds, before the next part.
        case delay(TimeInterval)
        /// The transfer fails with this error (as `MoyaError.underlying`), after the parts before.
        case failure(Error)
    }

    /// The status code of the head.
    public var statusCode: Int

    /// The header fields of the head.
    public var headers: [String: String]

    /// The body, in order.
    public var parts: [Part]

    /// Creates a sample stream.
    public init(statusCode: Int = 200, headers: [String: String] = [:], parts: [Part]) {
        self.statusCode = statusCode
        self.headers = headers
        self.parts = parts
    }

    /// A stream of `events`, in the `text/event-stream` format, each after `interval` seconds.
    public static func events(
        _ events: [ServerSentEvent],
        interval: TimeInterval = 0,
        statusCode: Int = 200
    ) -> SampleStream {
        chunks(events.map { Data($0.wireRepresentation.utf8) }, interval: interval, statusCode: statusCode)
            .with(header: "Content-Type", value: "text/event-stream")
    }

    /// A stream of `chunks`, each after `interval` seconds.
    public static func chunks(_ chunks: [Data], interval: TimeInterval = 0, statusCode: Int = 200) -> SampleStream {
        var parts: [Part] = []
        for chunk in chunks {
            if interval > 0 {
                parts.append(.delay(interval))
            }
            parts.append(.chunk(chunk))
        }
        return SampleStream(statusCode: statusCode, parts: parts)
    }

    /// A copy that ends with `error` after its parts, as a connection that breaks.
    public func failing(with error: Error) -> SampleStream {
        var copy = self
        copy.parts.append(.failure(error))
        return copy
    }

    /// A copy with one more header field.
    public func with(header name: String, value: String) -> SampleStream {
        var copy = self
        copy.headers[name] = value
        return copy
    }
}
