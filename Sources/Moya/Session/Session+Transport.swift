import AsyncHTTPClient
import Foundation
import NIOCore

extension Session: Transport {
    func send(_ exchange: Exchange, events: TransportEvents) -> TransportHandle {
        let request: HTTPClient.Request
        do {
            let body = exchange.request.httpBody.map { HTTPClient.Body.bytes($0) }
            request = try HTTPRequestConversion.makeRequest(exchange.request, sessionHeaders: sessionHeaders, body: body)
        } catch let error as MoyaError {
            events.completion(.failure(error))
            return NoTransportHandle()
        } catch {
            events.completion(.failure(.underlying(error, nil)))
            return NoTransportHandle()
        }

        let collector = ResponseCollector(request: exchange.request)
        let deadline = configuration.requestTimeout.map { NIODeadline.now() + $0 }
        let task = httpClient.execute(request: request, delegate: collector, deadline: deadline)
        task.futureResult.whenComplete { result in
            switch result {
            case .success(let response):
                events.completion(.success(response))
            case .failure(let error):
                events.completion(.failure(.underlying(error, nil)))
            }
        }
        return HTTPTaskHandle(task: task)
    }
}

/// Nothing was started.
private struct NoTransportHandle: TransportHandle {
    func cancel() {}
}

/// Cancels an AsyncHTTPClient task.
private struct HTTPTaskHandle: TransportHandle {
    let task: HTTPClient.Task<Response>

    func cancel() {
        task.cancel()
    }
}
