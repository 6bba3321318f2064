import AsyncHTTPClient
import Foundation
import NIOCore

extension Session {
    func open(_ exchange: Exchange, events: StreamEvents) -> TransportHandle {
        let handle = TransferHandle<Void>()
        var reporting = events
        reporting.head = { result in
            // The contract: a cancelled transfer reports nothing, it only stops.
            if !handle.isCancelled {
                events.head(result)
            }
        }
        startStream(exchange, events: reporting, handle: handle, wait: nil)
        return handle
    }

    /// Sends the exchange, with the session's settings as for every request: its client
    /// (pinned hosts included), default headers, idle timeout (or the request's
    /// `timeoutInterval`), whole-request deadline, and a new trip to the pool when the pool gave
    /// up on the first (`wait` and `scope` as in `start`).
    private func startStream(
        _ exchange: Exchange,
        events: StreamEvents,
        handle: TransferHandle<Void>,
        wait: ConnectionWait?,
        scope: TransferScope? = nil
    ) {
        let clientRequest: HTTPClient.Request
        do {
            clientRequest = try Self.streamRequest(for: exchange, sessionHeaders: sessionHeaders)
        } catch {
            events.head(.failure(MoyaError.wrapping(error)))
            Self.stopped(handle)
            return
        }
        let request = exchange.request
        let idleTimeout = Self.idleTimeout(for: request, default: configuration.readTimeout)
        let wait = wait ?? ConnectionWait(idleTimeout: idleTimeout, requestTimeout: configuration.requestTimeout)
        let scope = scope ?? TransferScope(configuration: configuration, deadline: exchange.deadline)
        let delegate = StreamDelegate(
            request: request,
            idleTimeout: idleTimeout,
            onHead: events.head,
            onEnd: events.ended,
            mapError: { [self] error in transferError(scope.explaining(error), url: request.url) }
        )
        let task = route(for: clientRequest.url).client.execute(
            request: clientRequest,
            delegate: delegate,
            eventLoop: .indifferent,
            deadline: scope.deadline,
            logger: scope.logger
        )
        handle.track(task)
        delegate.track(task)
        task.futureResult.whenComplete { [self] result in
            switch result {
            case .success:
                delegate.ended(nil)
            case .failure(let error) where ConnectionWait.isPoolTimeout(error) && !delegate.hasHead:
                guard wait.mayWaitAgain() else {
                    let limit = configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit
                    delegate.ended(wait.timeoutError(url: request.url, connectionLimit: limit))
                    break
                }
                startStream(exchange, events: events, handle: handle, wait: wait, scope: scope)
                return
            case .failure(let error):
                delegate.ended(error)
            }
            Self.stopped(handle)
        }
    }

    /// The transfer has wound down: whoever cancelled it hears so now.
    private static func stopped(_ handle: TransferHandle<Void>) {
        for callback in handle.finished().whenStopped {
            callback()
        }
    }

    /// The AsyncHTTPClient request for a streamed exchange: as for any request, the body comes
    /// from the endpoint's task (bytes, a file, multipart parts), so a stream can follow an upload.
    private static func streamRequest(
        for exchange: Exchange,
        sessionHeaders: [String: String]
    ) throws -> HTTPClient.Request {
        var urlRequest = exchange.request
        let body = try RequestBody.forTask(
            exchange.endpoint.task,
            of: &urlRequest,
            endpointMethod: exchange.endpoint.method
        )
        return try HTTPRequestConversion.makeRequest(
            urlRequest,
            sessionHeaders: sessionHeaders,
            body: body?.makeClientBody()
        )
    }
}
