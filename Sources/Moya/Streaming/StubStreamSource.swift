import Foundation
import NIOConcurrencyHelpers

/// Answers a stubbed streamed request: the endpoint's `SampleStream`, played part by part with
/// its delays and back-pressure, or else its sample response, whose data is one chunk.
struct StubStreamSource: StreamSource {
    let behavior: StubBehavior

    func open(_ request: URLRequest, endpoint: Endpoint, report: StreamReport) async -> Result<OpenedStream, MoyaError>
    {
        if case .delayed(let seconds) = behavior, seconds > 0 {
            do {
                try await _Concurrency.Task.sleep(nanoseconds: UInt64(min(seconds, 86_400) * 1e9))
            } catch {
                return .failure(.cancelled)
            }
        }
        let sample: SampleStream
        switch Self.sample(for: endpoint) {
        case .failure(let error):
            return .failure(error)
        case .success(let stream):
            sample = stream
        }
        let url = request.url ?? URL(fileURLWithPath: "/")
        let head = Response(
            statusCode: sample.statusCode,
            data: Data(),
            request: request,
            response: HTTPURLResponse(
                url: url,
                statusCode: sample.statusCode,
                httpVersion: "HTTP/1.1",
                headerFields: sample.headers
            )
        )
        let player = NIOLockedValueBox<_Concurrency.Task<Void, Never>?>(nil)
        let channel = ChunkChannel { termination in
            if case .consumerLeft = termination {
                player.withLockedValue { $0 }?.cancel()
            }
            report.terminated(termination)
        }
        let parts = sample.parts
        let task = _Concurrency.Task {
            await Self.play(parts, into: channel, head: head)
        }
        player.withLockedValue { $0 = task }
        return .success(OpenedStream(head: head, chunks: ResponseChunks(channel: channel)))
    }

    /// The stream to play: the endpoint's sample stream, else its sample response.
    static func sample(for endpoint: Endpoint) -> Result<SampleStream, MoyaError> {
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
