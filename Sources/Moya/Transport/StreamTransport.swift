import Foundation

/// A transport that can also hand a response over at its head, its body read as it arrives:
/// the package's own (AsyncHTTPClient, the stub) and the decorators around them. The
/// `Transport` contract's stream rules apply (see `Transport`).
///
/// Internal: a `Transport` of a user's answers streamed requests whole (`WholeBodyStreams`).
protocol StreamTransport: Transport {
    /// Starts sending a request whose response is read as it arrives, keeping the contract.
    func open(_ exchange: TransportExchange, events: StreamEvents)
}

/// How a transport reports back on a streamed request.
struct StreamEvents: Sendable {
    /// The head, with the body still to read, or the failure that came before it.
    var head: @Sendable (Result<OpenedStream, MoyaError>) -> Void
    /// The body's reader is done: it read the end, met the transfer's failure, or left.
    var ended: @Sendable (ChunkChannel.Termination) -> Void
}

/// A streamed attempt whose head has arrived.
struct OpenedStream: Sendable {
    /// The head, as a response with an empty body.
    var head: Response
    /// The body; dropping it unread ends the transfer.
    var chunks: ResponseChunks
}
