import Foundation

/// The server-sent events of a `text/event-stream` response, as they complete.
///
/// From `MoyaProvider.events(_:reconnect:)`, which connects when the loop starts and, under
/// an `EventStreamReconnectPolicy`, reconnects when the connection ends; or from
/// `StreamedResponse.events(maximumEventSize:)`, for one response already open.
///
/// ```swift
/// for try await token in provider.events(.chat(prompt)).decode(Token.self) {
///     print(token.text, terminator: "")
/// }
/// ```
///
/// The loop ends when the stream does (or after `204 No Content`), and throws a `MoyaError`
/// when it fails, after every event that arrived before. Leaving the loop, or cancelling its
/// task, ends the request at once.
public struct EventStream: AsyncSequence, Sendable {
    /// An event.
    public typealias Element = ServerSentEvent

    /// Opens one connection, sending the given last event ID when it is not empty.
    typealias Connect = @Sendable (_ lastEventID: String) async throws(MoyaError) -> StreamedResponse

    let policy: EventStreamReconnectPolicy
    let maximumEventSize: Int
    let connect: Connect

    init(policy: EventStreamReconnectPolicy, maximumEventSize: Int, connect: @escaping Connect) {
        self.policy = policy
        self.maximumEventSize = maximumEventSize
        self.connect = connect
    }

    /// Makes an iterator, which connects on its first `next()`.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(stream: self)
    }

    /// Decodes each event's data as JSON into `type`.
    ///
    /// The loop throws `MoyaError.objectMapping` for an event that does not decode.
    public func decode<T: Decodable>(
        _ type: T.Type,
        using decoder: JSONDecoder = JSONDecoder()
    ) -> DecodedEventStream<T> {
        DecodedEventStream(events: self, decoder: decoder)
    }

    /// Reads events, reconnecting as the policy allows.
    public struct AsyncIterator: AsyncIteratorProtocol {
        private let stream: EventStream
        private var parser: ServerSentEventParser
        private var chunks: ResponseChunks.AsyncIterator?
        /// The head of the open connection, for the errors it ends with.
        private var head: Response?
        private var pending: [ServerSentEvent] = []
        private var pendingIndex = 0
        private var schedule: ReconnectSchedule
        /// The wait before the next connection, in seconds; `nil` before the first.
        private var waitBeforeConnecting: Double?
        private var isFinished = false

        init(stream: EventStream) {
            self.stream = stream
            self.parser = ServerSentEventParser(maximumEventSize: stream.maximumEventSize)
            self.schedule = ReconnectSchedule(policy: stream.policy)
        }

        /// The next event, or `nil` once the stream ended.
        ///
        /// - Throws: `MoyaError`: the failure that ended the stream, after the events before it.
        public mutating func next() async throws(MoyaError) -> ServerSentEvent? {
            while true {
                if pendingIndex < pending.count {
                    defer { pendingIndex += 1 }
                    schedule.eventReceived()
                    return pending[pendingIndex]
                }
                guard !isFinished else { return nil }
                do {
                    if let chunks {
                        try await read(from: chunks)
                    } else {
                        try await open()
                    }
                } catch {
                    try endConnection(failure: error)
                }
            }
        }

        private mutating func open() async throws(MoyaError) {
            if let waitBeforeConnecting {
                try await Self.sleep(seconds: waitBeforeConnecting)
            }
            let response = try await stream.connect(parser.lastEventID)
            guard response.statusCode != 204 else {
                // "No Content": the server asks the client not to reconnect.
                isFinished = true
                return
            }
            if let refusal = EventStream.refusal(of: response) {
                // As the WHATWG standard says: fail the connection, and never reconnect.
                isFinished = true
                throw MoyaError.underlying(refusal, response.head)
            }
            schedule.connectionOpened(at: .now)
            head = response.head
            chunks = response.chunks.makeAsyncIterator()
        }

        private mutating func read(from iterator: ResponseChunks.AsyncIterator) async throws(MoyaError) {
            var iterator = iterator
            let chunk = try await iterator.next()
            chunks = iterator
            guard let chunk else {
                try endConnection(failure: nil)
                return
            }
            do {
                pending = try parser.parse(chunk)
                pendingIndex = 0
            } catch {
                chunks = nil
                isFinished = true
                throw MoyaError.underlying(error, head)
            }
        }

        /// The connection ended, cleanly or with `failure`: reconnect if the policy allows,
        /// else end the stream (rethrowing the failure).
        private mutating func endConnection(failure: MoyaError?) throws(MoyaError) {
            chunks = nil
            head = nil
            parser.finish()
            let mayReconnect = !isFinished && (failure.map(EventStreamReconnectPolicy.isTransient) ?? true)
            waitBeforeConnecting = schedule.connectionEnded(
                at: .now,
                mayReconnect: mayReconnect,
                serverRetry: parser.reconnectionTime
            )
            if waitBeforeConnecting != nil {
                return
            }
            isFinished = true
            if let failure {
                throw failure
            }
        }

        private static func sleep(seconds: TimeInterval) async throws(MoyaError) {
            guard seconds > 0 else { return }
            do {
                try await _Concurrency.Task.sleep(nanoseconds: UInt64(Swift.min(seconds, 86_400) * 1e9))
            } catch {
                throw MoyaError.cancelled
            }
        }
    }
}
