import AsyncHTTPClient
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

/// Receives one streamed response from AsyncHTTPClient: hands the head to `onHead`, then
/// each body part to the reader through a `ChunkChannel`, holding the connection back (by not
/// completing the part's future) while the reader is busy.
///
/// Delegate calls arrive on the request's event loop; `ended` and the channel's termination
/// come from other threads, hence the lock.
final class StreamDelegate: HTTPClientResponseDelegate, ExchangeReceiver {
    typealias Response = Void

    private struct State {
        var url: URL?
        var head: Moya.Response?
        var channel: ChunkChannel?
        var headSettled = false
        /// The head of a redirect the transport follows, whose body is dropped: the reader
        /// gets the head the redirects lead to.
        var redirect: HTTPResponseHead?
    }

    private let state = NIOLockedValueBox(State())
    private let request: URLRequest
    /// The idle timeout, whose clock stops while the reader holds the transfer back; the
    /// whole-request deadline is AsyncHTTPClient's (`Session.open`).
    private let idleWatch: IdleTimeoutWatch
    /// The attempt's cancellation, which the reader cancels when it leaves the body.
    private let cancellation: TransportCancellation
    private let onHead: @Sendable (Result<OpenedStream, MoyaError>) -> Void
    private let onEnd: @Sendable (ChunkChannel.Termination) -> Void
    /// The URL a redirect would be resolved from, when the transport follows redirects.
    private let redirectBase: URL?

    /// - Parameters:
    ///   - redirectBase: The request's URL when the transport follows its redirects
    ///     (`Route.redirectBase`).
    ///   - onHead: Called once: with the head and its body, or the failure that came first.
    ///   - onEnd: Called once the body's reader is done (see `ChunkChannel`).
    init(
        request: URLRequest,
        idleTimeout: TimeAmount,
        sweep: IdleSweep,
        redirectBase: URL?,
        cancellation: TransportCancellation,
        onHead: @escaping @Sendable (Result<OpenedStream, MoyaError>) -> Void,
        onEnd: @escaping @Sendable (ChunkChannel.Termination) -> Void
    ) {
        self.request = request
        self.idleWatch = IdleTimeoutWatch(idleTimeout: idleTimeout, sweep: sweep)
        self.cancellation = cancellation
        self.onHead = onHead
        self.onEnd = onEnd
        self.redirectBase = redirectBase
    }

    /// The head of the redirect this transfer received instead of an answer, and where from:
    /// read once the transfer completed, to follow it.
    var redirect: (head: HTTPResponseHead, url: URL)? {
        state.withLockedValue { state in
            state.redirect.map { ($0, state.url ?? request.url ?? URL(fileURLWithPath: "/")) }
        }
    }

    /// Whether the head arrived: a transfer that failed after it is not sent again.
    var hasHead: Bool {
        state.withLockedValue { $0.head != nil }
    }

    private func settleHead(_ outcome: Result<OpenedStream, MoyaError>) {
        let first = state.withLockedValue { state in
            defer { state.headSettled = true }
            return !state.headSettled
        }
        if first {
            onHead(outcome)
        }
    }

    /// The transfer is over: `error` is `nil` when the body completed, else what URLSession
    /// reports for the fault (the session maps AsyncHTTPClient's errors, `Session.afterFailure`).
    func ended(_ error: Error?) {
        idleWatch.stop()
        let (channel, head) = state.withLockedValue { state in
            // The channel's termination closure refers to this delegate: let go of it.
            defer { state.channel = nil }
            return (state.channel, state.head)
        }
        let failure = error.map { MoyaError.underlying($0, head) }
        settleHead(.failure(failure ?? .underlying(TransferError.noResponseHead, nil)))
        channel?.finish(failure.map { .failed($0) } ?? .finished)
    }

    /// The transfer of a redirect is over: the watch stops, and the reader hears from the
    /// trip the redirect leads to.
    func endedWithRedirect() {
        idleWatch.stop()
    }

    // MARK: ExchangeReceiver

    func sentHead(control: some TransferControl) {
        idleWatch.bytesMoved(control: control)
    }

    func sentPart(_ byteCount: Int, control: some TransferControl) {
        idleWatch.bytesMoved(control: control)
    }

    func visited(_ url: URL) {
        state.withLockedValue { $0.url = url }
    }

    func receivedHead(_ head: HTTPResponseHead, control: some TransferControl) -> EventLoopFuture<Void> {
        idleWatch.bytesMoved(control: control)
        if RedirectHops.isFollowed(head, from: redirectBase) {
            state.withLockedValue { $0.redirect = head }
            return control.eventLoop.makeSucceededVoidFuture()
        }
        let url = state.withLockedValue { $0.url } ?? request.url ?? URL(fileURLWithPath: "/")
        let response = Moya.Response(head: head, url: url, data: Data(), request: request, fileURL: nil)
        let onEnd = self.onEnd
        let cancellation = self.cancellation
        let channel = ChunkChannel { termination in
            if case .consumerLeft = termination {
                cancellation.cancel()
            }
            onEnd(termination)
        }
        state.withLockedValue { state in
            state.head = response
            state.channel = channel
        }
        settleHead(.success(OpenedStream(head: response, chunks: ResponseChunks(channel: channel))))
        return control.eventLoop.makeSucceededVoidFuture()
    }

    func receivedPart(_ buffer: ByteBuffer, control: some TransferControl) -> EventLoopFuture<Void> {
        idleWatch.bytesMoved(control: control)
        guard let channel = state.withLockedValue({ $0.channel }) else {
            return control.eventLoop.makeSucceededVoidFuture()
        }
        let promise = control.eventLoop.makePromise(of: Void.self)
        let idleWatch = self.idleWatch
        // Paused first, so that a reader resuming at once (from its own thread) cannot be
        // overtaken by this pause and leave the clock stopped.
        idleWatch.pause()
        let goOn = channel.send(Data(buffer: buffer, byteTransferStrategy: .automatic)) {
            // Reading resumes: the idle clock starts again from now.
            idleWatch.bytesMoved(control: control)
            promise.succeed()
        }
        if goOn {
            idleWatch.bytesMoved(control: control)
            promise.succeed()
        }
        return promise.futureResult
    }

    /// The transfer's end is reported by `ended`, once the transport knows whether it follows
    /// a redirect or queues the exchange again.
    func failed(_ error: Error) {}

    func finished() throws {}
}
