import Foundation
import NIOConcurrencyHelpers

/// Answers a request with its endpoint's sample response, now or after a delay.
struct StubTransport: Transport {
    let behavior: StubBehavior

    func send(_ exchange: Exchange, events: TransportEvents) -> TransportHandle {
        switch behavior {
        case .delayed(let seconds):
            let work = DispatchWorkItem {
                events.completion(Self.response(for: exchange))
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds, execute: work)
            return DelayedStubHandle(work: work)
        case .immediate, .never:
            // Answered here: no closure to keep for later.
            events.completion(Self.response(for: exchange))
            return ImmediateStubHandle()
        }
    }

    static func response(for exchange: Exchange) -> Result<Response, MoyaError> {
        switch exchange.endpoint.sampleResponseClosure() {
        case let .networkResponse(statusCode, data):
            return .success(Response(statusCode: statusCode, data: data, request: exchange.request, response: nil))
        case let .response(httpResponse, data):
            return .success(
                Response(
                    statusCode: httpResponse.statusCode,
                    data: data,
                    request: exchange.request,
                    response: httpResponse
                )
            )
        case .networkError(let error):
            return .failure(.underlying(error, nil))
        }
    }
}

/// An immediate stub has already answered: there is nothing left to stop.
struct ImmediateStubHandle: TransportHandle {
    func cancel(then stopped: @escaping @Sendable () -> Void) {
        stopped()
    }
}

/// Cancels the pending delayed answer.
///
/// - Note: `@unchecked Sendable` because `DispatchWorkItem` is thread-safe (its `cancel()` may
///   be called from any thread) but not annotated `Sendable` on every platform.
struct DelayedStubHandle: TransportHandle, @unchecked Sendable {
    let work: DispatchWorkItem

    func cancel(then stopped: @escaping @Sendable () -> Void) {
        work.cancel()
        stopped()
    }
}
