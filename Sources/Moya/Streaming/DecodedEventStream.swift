import Foundation

/// The events of an `EventStream`, each one's data decoded from JSON: from
/// `EventStream.decode(_:using:)`.
///
/// - Note: `@unchecked Sendable` because `JSONDecoder` is not `Sendable` on every platform;
///   the decoder is only read (to decode), from the task iterating the stream.
public struct DecodedEventStream<Value: Decodable>: AsyncSequence, @unchecked Sendable {
    /// A decoded event.
    public typealias Element = Value

    let events: EventStream
    let decoder: JSONDecoder

    /// Makes an iterator, which connects on its first `next()`.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(events: events.makeAsyncIterator(), decoder: decoder)
    }

    /// Reads and decodes events.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var events: EventStream.AsyncIterator
        let decoder: JSONDecoder

        /// The next decoded event, or `nil` once the stream ended.
        ///
        /// - Throws: `MoyaError`: the stream's failure, or `.objectMapping` for an event whose
        ///   data does not decode.
        public mutating func next() async throws(MoyaError) -> Value? {
            guard let event = try await events.next() else { return nil }
            return try event.decode(Value.self, using: decoder)
        }
    }
}
