import Foundation
import NIOConcurrencyHelpers

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The one delegate of the transport's `URLSession`: hands each task's events to the transfer
/// that started the task.
///
/// URLSession keeps its delegate until the session is invalidated, and calls it on the
/// session's delegate queue, one call at a time (the queue is serial: see
/// `URLSessionTransport`). The transfers, not the delegate, hold the requests' state.
final class URLSessionTaskRouter: NSObject, Sendable {
    private let transfers = NIOLockedValueBox([Int: URLSessionTransfer]())

    /// Routes `task`'s events to `transfer` until the task completes.
    func register(_ transfer: URLSessionTransfer, for task: URLSessionTask) {
        transfers.withLockedValue { $0[task.taskIdentifier] = transfer }
    }

    fileprivate func transfer(for task: URLSessionTask) -> URLSessionTransfer? {
        transfers.withLockedValue { $0[task.taskIdentifier] }
    }

    fileprivate func remove(_ task: URLSessionTask) -> URLSessionTransfer? {
        transfers.withLockedValue { $0.removeValue(forKey: task.taskIdentifier) }
    }
}

extension URLSessionTaskRouter: URLSessionDataDelegate {
    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        transfer(for: dataTask)?.received(response)
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        transfer(for: dataTask)?.received(data)
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didSendBodyData bytesSent: Int64,
        totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        transfer(for: task)?.sent(bytesSent)
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        guard let transfer = transfer(for: task) else {
            completionHandler(nil)
            return
        }
        completionHandler(transfer.redirect(from: response, to: request))
    }

    /// An HTTP authentication challenge (`401`/`407`). Answering challenges is the lifecycle's
    /// business (`ChallengeInterceptor`), so the transport reports the `401` as received.
    ///
    /// URLSession on Linux asks only after the whole response arrived, and then never ends the
    /// task, whatever the answer (checked: `performDefaultHandling`, `rejectProtectionSpace`,
    /// `cancelAuthenticationChallenge` and no delegate method all leave it hanging): the transfer
    /// reports what it received and cancels the task. On Apple's platforms the default handling,
    /// with no credential storage in the configuration, delivers the `401` as the response.
    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        #if canImport(FoundationNetworking)
        transfer(for: task)?.challengedAfterResponse()
        completionHandler(.cancelAuthenticationChallenge, nil)
        #else
        completionHandler(.performDefaultHandling, nil)
        #endif
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        remove(task)?.completed(error)
    }
}
