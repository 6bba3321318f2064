import Foundation

extension StreamPipeline {
    /// Sends attempts until one's head is handed over, or the request fails.
    ///
    /// Each attempt is adapted by the interceptor and validated; the interceptor's retrier sees
    /// each outcome before validation, as for every request: the head with an empty body when
    /// its status is accepted, with the start of its body (up to `refusedBodyLimit`) when not.
    func send(_ request: URLRequest) async throws(MoyaError) -> StreamedResponse {
        let source = self.source
        let validation = target.validationType
        let endpoint = self.endpoint
        let requestContext = self.requestContext
        var attempt = 0
        while true {
            attempt += 1
            if _Concurrency.Task.isCancelled {
                throw MoyaError.cancelled
            }
            let current = try await adapt(request)
            let report = StreamReport { [self] result in didReceive(result) }
            let opened = await RequestContext.$current.withValue(requestContext) {
                await source.open(current, endpoint: endpoint, report: report)
            }

            var stream: OpenedStream?
            let outcome: Result<Response, MoyaError>
            switch opened {
            case .failure(let error):
                outcome = .failure(error)
            case .success(let opened) where validation.accepts(opened.head.statusCode):
                stream = opened
                outcome = .success(opened.head)
            case .success(let opened):
                report.discard()
                outcome = .success(await Self.refusedResponse(opened))
            }

            switch await retryDecision(current, attempt: attempt, outcome: outcome) {
            case nil:
                report.discard()
                throw MoyaError.cancelled
            case .retry?:
                report.discard()
                continue
            case .retryWithDelay(let seconds)?:
                report.discard()
                stream = nil
                if seconds > 0 {
                    do {
                        try await _Concurrency.Task.sleep(nanoseconds: UInt64(min(seconds, 86_400) * 1e9))
                    } catch {
                        throw MoyaError.cancelled
                    }
                }
                continue
            case .doNotRetryWithError(let error)?:
                report.discard()
                throw error
            case .doNotRetry?:
                break
            }

            let response = try outcome.get()
            guard let stream, validation.accepts(response.statusCode) else {
                throw MoyaError.underlying(MoyaError.statusCode(response), response)
            }
            report.accept(stream.head)
            return StreamedResponse(head: stream.head, chunks: observed(stream.chunks))
        }
    }

    /// The chunks, handed to every `StreamPluginType` as the reader receives them.
    private func observed(_ chunks: ResponseChunks) -> ResponseChunks {
        let observers = plugins.compactMap { $0 as? StreamPluginType }
        guard !observers.isEmpty else { return chunks }
        let handedOver = UserValue((observers: observers, target: target))
        let requestContext = self.requestContext
        return chunks.observed { chunk in
            RequestContext.$current.withValue(requestContext) {
                for observer in handedOver.value.observers {
                    observer.didReceive(chunk: chunk, target: handedOver.value.target)
                }
            }
        }
    }

    /// The request for one attempt, after the interceptor's adapter.
    private func adapt(_ request: URLRequest) async throws(MoyaError) -> URLRequest {
        guard let interceptor else { return request }
        let target = UserValue(self.target)
        let adapted = await RequestContext.$current.withValue(requestContext) {
            await CancellableWait.value { () -> Result<URLRequest, MoyaError> in
                do {
                    return .success(try await interceptor.adapt(request, for: target.value))
                } catch {
                    return .failure(MoyaError.wrapping(error))
                }
            }
        }
        guard let adapted else { throw MoyaError.cancelled }
        let current = try adapted.get()
        if let problem = HeaderValidation.problem(in: current) {
            throw MoyaError.underlying(problem, nil)
        }
        return current
    }

    /// What the interceptor's retrier decides (`.doNotRetry` without one); `nil` when the
    /// task was cancelled while it decided.
    private func retryDecision(
        _ request: URLRequest,
        attempt: Int,
        outcome: Result<Response, MoyaError>
    ) async -> RetryResult? {
        guard let interceptor else { return .doNotRetry }
        let target = UserValue(self.target)
        return await RequestContext.$current.withValue(requestContext) {
            await CancellableWait.value {
                await interceptor.retry(request, for: target.value, attempt: attempt, dueTo: outcome)
            }
        }
    }

    /// The refused response with the start of its body; the rest of the transfer is dropped.
    static func refusedResponse(_ stream: OpenedStream) async -> Response {
        var body = Data()
        var iterator = stream.chunks.makeAsyncIterator()
        while body.count < refusedBodyLimit, let chunk = try? await iterator.next() {
            body.append(chunk.prefix(refusedBodyLimit - body.count))
        }
        let head = stream.head
        return Response(statusCode: head.statusCode, data: body, request: head.request, response: head.response)
    }
}
