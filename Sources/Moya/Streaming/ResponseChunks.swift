import Foundation

/// The body of a streamed response, as chunks of bytes in the order they arrived.
///
/// Reading is paced by the reader: while it is busy, the transfer waits, so memory stays
/// bounded however long the stream runs. The chunks can be read once. Leaving the loop early,
/// cancelling the reading task, or dropping the value without reading it ends the request at
/// once. The loop throws a `MoyaError` when the transfer fails (the connection is lost, the
/// idle timeout runs out), after every chunk that arrived before.
public struct ResponseChunks: AsyncSequence, Sendable {
    /// A chunk of the body.
    public typealias Element = Data

    private let handle: Handle
    /// Called with each chunk the reader receives (`StreamPluginType`); `nil` when no plugin
    /// listens, so that reading costs nothing more.
    private let observer: (@Sendable (Data) -> Void)?

    init(channel: ChunkChannel) {
        self.handle = Handle(channel: channel)
        self.observer = nil
    }

    private init(handle: Handle, observer: (@Sendable (Data) -> Void)?) {
        self.handle = handle
        self.observer = observer
    }

    /// The same chunks, each also handed to `observer` as the reader receives it.
    func observed(by observer: @escaping @Sendable (Data) -> Void) -> ResponseChunks {
        ResponseChunks(handle: handle, observer: observer)
    }

    /// Makes the iterator. Only the first one reads the body; another throws
    /// `MoyaClientError` `streamAlreadyConsumed` (wrapped in `MoyaError.underlying`).
    public func makeAsyncIterator() -> AsyncIterator {
        let channel = handle.channel
        return AsyncIterator(reader: channel.makeIterator() ? Reader(channel: channel) : nil, observer: observer)
    }

    /// Reads the chunks one after the other.
    public struct AsyncIterator: AsyncIteratorProtocol {
        private let reader: Reader?
        private let observer: (@Sendable (Data) -> Void)?

        fileprivate init(reader: Reader?, observer: (@Sendable (Data) -> Void)?) {
            self.reader = reader
            self.observer = observer
        }

        /// The next chunk, or `nil` once the body is complete.
        ///
        /// - Throws: `MoyaError`: the transfer's failure, or the cancelled error.
        public mutating func next() async throws(MoyaError) -> Data? {
            guard let reader else {
                throw MoyaError.underlying(MoyaClientError.streamAlreadyConsumed, nil)
            }
            let chunk = try await reader.channel.next()
            if let chunk, let observer {
                observer(chunk)
            }
            return chunk
        }
    }

    /// Ends the transfer when the stream is dropped unread.
    private final class Handle: Sendable {
        let channel: ChunkChannel

        init(channel: ChunkChannel) {
            self.channel = channel
        }

        deinit {
            channel.sequenceDropped()
        }
    }

    /// Ends the transfer when the iterator is dropped: the loop was left early (or finished,
    /// when this changes nothing).
    fileprivate final class Reader: Sendable {
        let channel: ChunkChannel

        init(channel: ChunkChannel) {
            self.channel = channel
        }

        deinit {
            channel.consumerLeft()
        }
    }
}

extension ResponseChunks {
    /// Every chunk, concatenated: the whole body. Meant for bodies known to be small.
    ///
    /// - Parameter limit: The most bytes to keep; reading stops, and the request ends, once the
    ///   body exceeds it.
    /// - Throws: `MoyaError`, as the loop does; `.underlying(MoyaClientError, nil)` with the code `bodyTooLarge` past `limit`.
    public func collect(upTo limit: Int) async throws(MoyaError) -> Data {
        var body = Data()
        var iterator = makeAsyncIterator()
        while let chunk = try await iterator.next() {
            guard body.count + chunk.count <= limit else {
                throw MoyaError.underlying(MoyaClientError.bodyTooLarge(limit: limit), nil)
            }
            body.append(chunk)
        }
        return body
    }
}
