import Foundation
import NIOConcurrencyHelpers

extension StubTransport {
    /// Answers a streamed request with the endpoint's `SampleStream`, played part by part with
    /// its delays and back-pressure, or else its sample response, whose data is one chunk.
    func open(_ exchange: TransportExchange, events: StreamEvents) {
        switch behavior {
        case .delayed(let seconds):
            // The timer and a cancel race to answer the head: whichever comes first does.
            let head = AnswerOnce(events.head)
            var racing = events
            racing.head = { head($0) }
            let player = StubStreamPlayer(exchange: exchange, events: racing)
            let work = DelayedWork(after: seconds) { player.start() }
            exchange.cancellation.onCancel {
                work.cancel()
                head(.failure(TransportCancellation.error(url: exchange.request.url)))
            }
        case .immediate, .never:
            StubStreamPlayer(exchange: exchange, events: events).start()
        }
    }

    /// The stream to play: the endpoint's sample stream, else its sample response.
    static func sampleStream(for endpoint: Endpoint) -> Result<SampleStream, MoyaError> {
        if let closure = endpoint.sampleStreamClosure, let stream = closure() {
            return .success(stream)
        }
        switch endpoint.sampleResponseClosure() {
        case let .networkResponse(statusCode, data):
            return .success(SampleStream(statusCode: statusCode, parts: data.isEmpty ? [] : [.chunk(data)]))
        case let .response(response, data):
            var headers: [String: String] = [:]
            for (name, value) in response.allHeaderFields {
                if let name = name as? String {
                    headers[name] = "\(value)"
                }
            }
            return .success(
                SampleStream(
                    statusCode: response.statusCode,
                    headers: headers,
                    parts: data.isEmpty ? [] : [.chunk(data)]
                )
            )
        case .networkError(let error):
            return .failure(.underlying(error, nil))
        }
    }
}

/// Plays one stubbed stream: hands over its head, then its parts, in a task that stops when
/// the reader leaves.
private struct StubStreamPlayer: Sendable {
    let exchange: TransportExchange
    let events: StreamEvents

    func start() {
        let sample: SampleStream
        switch StubTransport.sampleStream(for: exchange.endpoint) {
        case .failure(let error):
            events.head(.failure(error))
            return
        case .success(let stream):
            sample = stream
        }
        let request = exchange.request
        let head = Response(
            statusCode: sample.statusCode,
            data: Data(),
            request: request,
            response: HTTPURLResponse(
                url: request.url ?? URL(fileURLWithPath: "/"),
                statusCode: sample.statusCode,
                httpVersion: "HTTP/1.1",
                headerFields: sample.headers
            )
        )
        let cancellation = exchange.cancellation
        let ended = events.ended
        let channel = ChunkChannel { termination in
            if case .consumerLeft = termination {
                cancellation.cancel()
            }
            ended(termination)
        }
        let parts = sample.parts
        let task = _Concurrency.Task { await Self.play(parts, into: channel, head: head) }
        // The reader leaving cancels the attempt, and so stops the player.
        cancellation.onCancel { task.cancel() }
        events.head(.success(OpenedStream(head: head, chunks: ResponseChunks(channel: channel))))
    }

    private static func play(_ parts: [SampleStream.Part], into channel: ChunkChannel, head: Response) async {
        for part in parts {
            guard !_Concurrency.Task.isCancelled else { return }
            switch part {
            case .chunk(let data):
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    if channel.send(data, whenReady: { continuation.resume() }) {
                        continuation.resume()
                    }
                }
            case .delay(let seconds):
                guard seconds > 0 else { continue }
                do {
                    try await _Concurrency.Task.sleep(nanoseconds: UInt64(min(seconds, 86_400) * 1e9))
                } catch {
                    return
                }
            case .failure(let error):
                channel.finish(.failed(MoyaError.underlying(error, head)))
                return
            }
        }
        channel.finish(.finished)
    }
}
