import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// Receives one response (from AsyncHTTPClient, or an exchange the transport carries itself), handing each event to the part that deals with it: the idle
/// timeout's watch, the progress reporter, and for a download the sink that writes the body to
/// a file. A body kept in memory is gathered here, beside the progress counts, rather than by a
/// sink of its own.
///
/// The watch also enforces the whole-request deadline when it is given one (see
/// `TransferScope.deadlines`). Delegate calls arrive on the request's event loop; the watch and
/// the sink lock for the calls made from other threads.
///
/// - Note: `@unchecked Sendable` because `state` is a plain variable: AsyncHTTPClient calls a
///   delegate's methods on its task's event loop, one after another (as its own
///   `ResponseAccumulator` relies on), and nothing else touches `state`. The watch and the
///   download sink, which other threads call, keep their own locks.
final class TransferDelegate: HTTPClientResponseDelegate, ExchangeReceiver, @unchecked Sendable {
    /// What the transfer produced.
    struct Outcome: Sendable {
        var head: HTTPResponseHead
        var url: URL
        var body: ByteBuffer
        var download: DownloadedFile?
        /// Whether the response is a redirect the transport follows, whose body was dropped.
        var isRedirect: Bool
    }

    typealias Response = Outcome

    /// The last URL visited and its head, for the outcome, the progress counts, and a body kept
    /// in memory: what the response's events update, on the event loop.
    private struct State {
        var url: URL?
        var head: HTTPResponseHead?
        var progress: ProgressReporter.StateMachine
        var body = ByteBuffer()
        /// Whether the response is a redirect the transport follows: its body is of no use.
        var isRedirect = false
    }

    private let idleWatch: IdleTimeoutWatch
    /// Where a download's body goes; `nil` for a body kept in memory.
    private let sink: DownloadSink?
    private let progress: ProgressReporter
    /// The URL a redirect would be resolved from, when the transport follows redirects.
    private let redirectBase: URL?
    private var state: State

    /// - Parameters:
    ///   - uploadLength: the request body's size for an upload task, which reports upload
    ///     progress; `nil` for the others, which report download progress.
    ///   - deadline: the whole-request deadline for the idle watch to enforce; `nil` when
    ///     AsyncHTTPClient enforces it, or when there is none.
    ///   - redirectBase: the request's URL when the transport follows its redirects
    ///     (`Route.redirectBase`): the body of a redirect it follows is then dropped as it
    ///     arrives, neither kept nor written to a download's file.
    init(
        sink: DownloadSink.Destination,
        redirectBase: URL?,
        uploadLength: Int64?,
        idleTimeout: TimeAmount,
        deadline: NIODeadline?,
        sweep: IdleSweep,
        wantsProgress: @escaping @Sendable () -> Bool,
        onProgress: @escaping @Sendable (Progress) -> Void
    ) {
        self.idleWatch = IdleTimeoutWatch(idleTimeout: idleTimeout, deadline: deadline, sweep: sweep)
        if case .memory = sink {
            self.sink = nil
        } else {
            self.sink = DownloadSink(destination: sink)
        }
        self.progress = ProgressReporter(wantsProgress: wantsProgress, onProgress: onProgress)
        self.redirectBase = redirectBase
        self.state = State(url: nil, head: nil, progress: ProgressReporter.StateMachine(uploadLength: uploadLength))
    }

    /// The temporary file a download wrote, to remove when the request fails.
    var temporaryFile: URL? {
        sink?.temporaryFile
    }

    // MARK: ExchangeReceiver

    func sentHead(control: some TransferControl) {
        idleWatch.bytesMoved(control: control)
    }

    func sentPart(_ byteCount: Int, control: some TransferControl) {
        idleWatch.bytesMoved(control: control)
        progress.deliver(state.progress.sent(byteCount))
    }

    func visited(_ url: URL) {
        state.url = url
    }

    func receivedHead(_ head: HTTPResponseHead, control: some TransferControl) -> EventLoopFuture<Void> {
        idleWatch.bytesMoved(control: control)
        state.head = head
        if RedirectHops.isFollowed(head, from: redirectBase) {
            state.isRedirect = true
            return control.eventLoop.makeSucceededVoidFuture()
        }
        let contentLength = ProgressReporter.contentLength(of: head)
        state.progress.receivedHead(contentLength: contentLength)
        return sink?.receivedHead(head, on: control.eventLoop) ?? control.eventLoop.makeSucceededVoidFuture()
    }

    func receivedPart(_ buffer: ByteBuffer, control: some TransferControl) -> EventLoopFuture<Void> {
        idleWatch.bytesMoved(control: control)
        guard !state.isRedirect else { return control.eventLoop.makeSucceededVoidFuture() }
        let count = buffer.readableBytes
        if sink == nil {
            state.body.appendPart(buffer)
        }
        progress.deliver(state.progress.received(count))
        return sink?.received(buffer, on: control.eventLoop) ?? control.eventLoop.makeSucceededVoidFuture()
    }

    func failed(_ error: Error) {
        idleWatch.stop()
        sink?.failed()
    }

    func finished() throws -> Outcome {
        idleWatch.stop()
        let (url, head, body) = (state.url, state.head, state.body)
        state.body = ByteBuffer()
        guard let head else {
            sink?.failed()
            throw TransferError.noResponseHead
        }
        let finished = sink?.finished()
        return Outcome(
            head: head,
            url: url ?? URL(fileURLWithPath: "/"),
            body: finished?.body ?? body,
            download: finished?.download,
            isRedirect: state.isRedirect
        )
    }
}

/// Failures of the exchange itself, as the `NSURLErrorDomain` errors URLSession reports for them.
enum TransferError {
    /// The exchange ended without a response head: URLSession's `badServerResponse`, an
    /// error users match like every other transport fault.
    static var noResponseHead: NSError {
        NSError(
            domain: NSURLErrorDomain,
            code: NSURLErrorBadServerResponse,
            userInfo: [NSLocalizedDescriptionKey: "The exchange ended without a response head"]
        )
    }
}
