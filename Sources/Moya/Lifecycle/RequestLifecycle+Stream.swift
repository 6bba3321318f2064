import Foundation

extension RequestLifecycle {
    /// The largest body kept from a streamed response whose status the target refuses: what the
    /// error carries, so that the server's explanation can be read, without reading an endless body.
    static let refusedBodyLimit = 64 << 10

    /// Runs a streamed request through the pipeline, as its one caller: returns once the head of
    /// an attempt passed the interceptor and the target's validation. Cancelling the task
    /// cancels the request.
    func openStream() async throws(MoyaError) -> StreamedResponse {
        let box = CancellableBox()
        let result: Result<StreamedResponse, MoyaError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                // The machine delivers to a subscriber once: one of these two runs.
                let subscriber = withMachine { machine in
                    machine.addSubscriber(
                        delivery: .inPlace,
                        progress: nil,
                        completion: { result in
                            continuation.resume(returning: .failure(Self.failure(of: result)))
                        },
                        receivesStream: { streamed in
                            continuation.resume(returning: .success(streamed))
                        }
                    )
                }
                box.set(RequestToken(lifecycle: self, subscriber: subscriber ?? 0))
                start()
            }
        } onCancel: {
            box.cancel()
        }
        return try result.get()
    }

    /// A streamed request's subscriber receives success through `receivesStream` only.
    private static func failure(of result: Result<Response, MoyaError>) -> MoyaError {
        switch result {
        case .failure(let error):
            return error
        case .success(let response):
            // Not reached: a head that passed comes with its body.
            return .underlying(TransferError.noResponseHead, response)
        }
    }

    /// Opens the attempt with the transport.
    func open(_ exchange: TransportExchange, step: Int) {
        let events = StreamEvents(
            head: { [self] result in receivedHead(result, step: step) },
            ended: { [self] termination in
                perform(withMachine { $0.streamEnded(termination, step: step) })
            }
        )
        withRequestContext {
            transport.open(exchange, events: events)
        }
    }

    /// The head arrived, or the attempt failed before it. The interceptor's retrier sees the
    /// head with an empty body when its status passes, and with the start of its body (up to
    /// `refusedBodyLimit`) when the target refuses it, as it sees any refused response.
    private func receivedHead(_ result: Result<OpenedStream, MoyaError>, step: Int) {
        releasePermit(result: result.map(\.head))
        switch result {
        case .failure(let error):
            observeAttemptDidEnd(.failure(error))
            perform(withMachine { $0.sent(.failure(error), step: step) })
        case .success(let opened) where context.target.validationType.accepts(opened.head.statusCode):
            // Kept alive past the lock, should the machine not take it (an attempt cancelled).
            let action = withExtendedLifetime(opened) {
                withMachine { $0.sent(.success(opened.head), body: opened.chunks, step: step) }
            }
            perform(action)
        case .success(let opened):
            LifecycleWork.start { [self] in
                let refused = await Self.refusedResponse(opened)
                observeAttemptDidEnd(.success(refused))
                perform(withMachine { $0.sent(.success(refused), step: step) })
            }
        }
    }

    /// The refused response with the start of its body; the rest of the transfer is dropped.
    private static func refusedResponse(_ stream: OpenedStream) async -> Response {
        var body = Data()
        var iterator = stream.chunks.makeAsyncIterator()
        while body.count < refusedBodyLimit, let chunk = try? await iterator.next() {
            body.append(chunk.prefix(refusedBodyLimit - body.count))
        }
        let head = stream.head
        return Response(statusCode: head.statusCode, data: body, request: head.request, response: head.response)
    }

    /// Hands the stream to its caller. For the provider the request is over; plugins hear
    /// `didReceive` when the reader is done with the body.
    func handOver(_ head: Response, body: ResponseChunks, to subscribers: StateMachine.Subscribers) {
        context.activeRequests?.remove(self)
        releasePermit(result: nil)
        let streamed = StreamedResponse(head: head, chunks: observed(body))
        for subscriber in subscribers {
            subscriber.delivery.execute {
                subscriber.receivesStream?(streamed)
            }
        }
    }

    /// Tells plugins how a handed-over stream ended.
    func reportStreamEnd(_ result: Result<Response, MoyaError>) {
        withRequestContext {
            for plugin in context.plugins {
                plugin.didReceive(result, target: context.target)
            }
        }
    }

    /// The chunks, handed to every `StreamPluginType` as the reader receives them.
    private func observed(_ chunks: ResponseChunks) -> ResponseChunks {
        let observers = context.plugins.compactMap { $0 as? StreamPluginType }
        guard !observers.isEmpty else { return chunks }
        let handedOver = UserValue((observers: observers, target: context.target))
        return chunks.observed { [self] chunk in
            withRequestContext {
                for observer in handedOver.value.observers {
                    observer.didReceive(chunk: chunk, target: handedOver.value.target)
                }
            }
        }
    }
}
