import Foundation

/// Answers streamed requests through a transport that only answers whole (a user's
/// `Transport`): the head is handed over once the whole response arrived, and its body is one
/// chunk. Reading it is as for any stream; there is simply nothing left to pace.
struct WholeBodyStreams: StreamTransport {
    let base: any Transport

    func send(_ exchange: TransportExchange, events: TransportEvents) {
        base.send(exchange, events: events)
    }

    func open(_ exchange: TransportExchange, events: StreamEvents) {
        let whole = TransportEvents(
            wantsProgress: { false },
            progress: { _ in },
            completion: { result in
                events.head(result.map { Self.opened($0, ended: events.ended) })
            }
        )
        base.send(exchange, events: whole)
    }

    /// `response` as a head and a body of one chunk, already complete.
    private static func opened(
        _ response: Response,
        ended: @escaping @Sendable (ChunkChannel.Termination) -> Void
    ) -> OpenedStream {
        // The whole body is in memory already: no watermark to hold it back against.
        let channel = ChunkChannel(highWatermark: .max, lowWatermark: 0, onTerminate: ended)
        if !response.data.isEmpty {
            _ = channel.send(response.data, whenReady: {})
        }
        channel.finish(.finished)
        let head = Response(
            statusCode: response.statusCode,
            data: Data(),
            request: response.request,
            response: response.response
        )
        return OpenedStream(head: head, chunks: ResponseChunks(channel: channel))
    }
}
