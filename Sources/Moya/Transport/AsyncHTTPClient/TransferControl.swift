import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// What the parts watching a transfer (the idle watch, a download's sink) need of it: the
/// event loop it runs on, and a way to fail it. AsyncHTTPClient's task is one; an exchange the
/// transport carries itself (`DedicatedExchange`) is the other.
protocol TransferControl: Sendable {
    /// The event loop the transfer's events arrive on.
    var eventLoop: EventLoop { get }
    /// Ends the transfer with `error`, unless it has ended already.
    func fail(reason error: Error)
}

extension HTTPClient.Task: TransferControl {}

/// Receives one exchange's events, whoever carries it: AsyncHTTPClient, through the receiver's
/// `HTTPClientResponseDelegate` methods, or the transport itself (`DedicatedExchange`). Each
/// receiver keeps its logic here once; the delegate methods only forward.
///
/// Events arrive one after another on the transfer's event loop, as AsyncHTTPClient calls a
/// delegate's methods.
protocol ExchangeReceiver: AnyObject, Sendable {
    /// What a completed exchange produced.
    associatedtype Outcome: Sendable

    /// The request's head went out.
    func sentHead(control: some TransferControl)
    /// `byteCount` bytes of the request's body went out.
    func sentPart(_ byteCount: Int, control: some TransferControl)
    /// The exchange's request is for `url`.
    func visited(_ url: URL)
    /// The response's head arrived; the next event waits for the future.
    func receivedHead(_ head: HTTPResponseHead, control: some TransferControl) -> EventLoopFuture<Void>
    /// A part of the response's body arrived; the next event waits for the future.
    func receivedPart(_ buffer: ByteBuffer, control: some TransferControl) -> EventLoopFuture<Void>
    /// The exchange failed with `error`; nothing follows.
    func failed(_ error: Error)
    /// The response ended; what it produced, or why it cannot be used.
    func finished() throws -> Outcome
}

/// AsyncHTTPClient's delegate calls, handed to the receiver's methods: the one place both
/// receivers (`TransferDelegate`, `StreamDelegate`) take them from AsyncHTTPClient.
extension ExchangeReceiver where Self: HTTPClientResponseDelegate, Response == Outcome {
    func didSendRequestHead(task: HTTPClient.Task<Response>, _ head: HTTPRequestHead) {
        sentHead(control: task)
    }

    func didSendRequestPart(task: HTTPClient.Task<Response>, _ part: IOData) {
        sentPart(part.readableBytes, control: task)
    }

    func didVisitURL(task: HTTPClient.Task<Response>, _ request: HTTPClient.Request, _ head: HTTPResponseHead) {
        visited(request.url)
    }

    func didReceiveHead(task: HTTPClient.Task<Response>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        receivedHead(head, control: task)
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Response>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        receivedPart(buffer, control: task)
    }

    func didReceiveError(task: HTTPClient.Task<Response>, _ error: Error) {
        failed(error)
    }

    func didFinishRequest(task: HTTPClient.Task<Response>) throws -> Response {
        try finished()
    }
}
