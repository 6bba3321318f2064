import AsyncHTTPClient
import Foundation
import NIOCore

/// Opens streamed requests through a session's AsyncHTTPClient, with the session's settings:
/// its client (pinned hosts included), default headers, idle timeout (or the request's
/// `timeoutInterval`, as for every request) and whole-request timeout.
struct NetworkStreamSource: StreamSource {
    let session: Session

    func open(_ request: URLRequest, endpoint: Endpoint, report: StreamReport) async -> Result<OpenedStream, MoyaError>
    {
        let clientRequest: HTTPClient.Request
        do {
            clientRequest = try StreamRequestBuilder.makeRequest(
                request,
                endpoint: endpoint,
                sessionHeaders: session.sessionHeaders
            )
        } catch {
            return .failure(MoyaError.wrapping(error))
        }
        let configuration = session.configuration
        // The whole-request timeout, when set, runs from the start of this connection.
        let scope = TransferScope(
            configuration: configuration,
            deadline: configuration.requestTimeout.map { NIODeadline.now() + $0 }
        )
        let session = self.session
        let url = request.url
        let delegate = StreamDelegate(
            request: request,
            idleTimeout: Session.idleTimeout(for: request, default: configuration.readTimeout),
            report: report,
            mapError: { error in session.transferError(scope.explaining(error), url: url) }
        )
        let task = session.client(for: clientRequest.url).execute(
            request: clientRequest,
            delegate: delegate,
            eventLoop: .indifferent,
            deadline: scope.deadline,
            logger: scope.logger
        )
        delegate.track(task)
        task.futureResult.whenComplete { result in
            switch result {
            case .success:
                delegate.ended(nil)
            case .failure(let error):
                delegate.ended(error)
            }
        }
        return await withTaskCancellationHandler {
            await delegate.head()
        } onCancel: {
            task.cancel()
        }
    }
}
