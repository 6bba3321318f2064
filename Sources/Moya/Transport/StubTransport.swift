import Foundation
import NIOConcurrencyHelpers

/// Answers a request with its endpoint's sample response, now or after a delay.
struct StubTransport: StreamTransport {
    let behavior: StubBehavior

    func send(_ exchange: TransportExchange, events: TransportEvents) {
        switch behavior {
        case .delayed(let seconds):
            // The timer and a cancel race to answer: whichever comes first does.
            let answer = AnswerOnce(events.completion)
            let work = DelayedWork(after: seconds) {
                answer(Self.response(for: exchange))
            }
            exchange.cancellation.onCancel {
                work.cancel()
                answer(.failure(TransportCancellation.error(url: exchange.request.url)))
            }
        case .immediate, .never:
            // Answered here: no closure to keep for later.
            events.completion(Self.response(for: exchange))
        }
    }

    static func response(for exchange: TransportExchange) -> Result<Response, MoyaError> {
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

/// Work run on a global queue after a delay, unless cancelled first. On Dispatch's own threads,
/// not Swift's cooperative pool, so that a caller blocking a pool thread while it waits for a
/// stubbed answer cannot starve it.
///
/// - Note: `@unchecked Sendable` because `DispatchWorkItem` is thread-safe (its `cancel()` may
///   be called from any thread) but not annotated `Sendable` on every platform.
struct DelayedWork: @unchecked Sendable {
    private let item: DispatchWorkItem

    /// Schedules `work` in `seconds`.
    init(after seconds: TimeInterval, _ work: @escaping @Sendable () -> Void) {
        item = DispatchWorkItem(block: work)
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds, execute: item)
    }

    func cancel() {
        item.cancel()
    }
}

/// Passes on the first answer it is given and drops the others, so that a delayed answer and
/// a cancel racing for it complete an attempt once.
struct AnswerOnce<Answer: Sendable>: Sendable {
    private let answered = NIOLockedValueBox(false)
    private let deliver: @Sendable (Answer) -> Void

    init(_ deliver: @escaping @Sendable (Answer) -> Void) {
        self.deliver = deliver
    }

    func callAsFunction(_ answer: Answer) {
        let first = answered.withLockedValue { answered in
            defer { answered = true }
            return !answered
        }
        if first {
            deliver(answer)
        }
    }
}
