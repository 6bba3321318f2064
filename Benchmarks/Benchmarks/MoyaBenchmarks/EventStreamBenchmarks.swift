import Benchmark
import Foundation
import Moya

/// Server-sent events per second: `provider.events(_:)` on a stubbed stream (the pipeline, the
/// chunk channel with its back-pressure, the parser) against `ServerSentEventParser` alone on
/// the same bytes, cut into the same chunks.
func eventStreamBenchmarks(_ configuration: Benchmark.Configuration) {
    let chunks = EventStreamPayload.chunks
    let count = EventStreamPayload.eventCount

    Benchmark("Server-sent events, \(count) in 16 KB chunks · Moya", configuration: configuration) { benchmark, provider in
        benchmark.measurement(requestsMetric, count)
        var received = 0
        for try await event in provider.events(BenchAPI(baseURL: Network.unusedURL, operation: .getJSON)) {
            blackHole(event)
            received += 1
        }
        precondition(received == count, "\(received) events instead of \(count)")
    } setup: {
        MoyaProvider<BenchAPI>(
            endpointClosure: { target in
                let endpoint = MoyaProvider.defaultEndpointMapping(for: target)
                return Endpoint(
                    url: endpoint.url,
                    sampleResponseClosure: endpoint.sampleResponseClosure,
                    method: endpoint.method,
                    task: endpoint.task,
                    httpHeaderFields: endpoint.httpHeaderFields,
                    sampleStreamClosure: { SampleStream.chunks(chunks) }
                )
            },
            stubClosure: MoyaProvider.immediatelyStub
        )
    }

    Benchmark("Server-sent events, \(count) in 16 KB chunks · Parser alone", configuration: configuration) { benchmark in
        benchmark.measurement(requestsMetric, count)
        var parser = ServerSentEventParser()
        var received = 0
        for chunk in chunks {
            for event in try parser.parse(chunk) {
                blackHole(event)
                received += 1
            }
        }
        precondition(received == count, "\(received) events instead of \(count)")
    }
}

/// A language model's answer as it streams: short JSON tokens with an event type and an ID.
enum EventStreamPayload {
    static let eventCount = 20_000

    /// The stream's bytes, cut into 16 KB chunks (splitting lines and events, as reads do).
    static let chunks: [Data] = {
        var text = ""
        for index in 0..<eventCount {
            text += "event: token\nid: \(index)\ndata: {\"text\":\"word\(index % 100) \",\"index\":\(index)}\n\n"
        }
        let bytes = Data(text.utf8)
        return stride(from: 0, to: bytes.count, by: 16 << 10).map { start in
            bytes.subdata(in: start..<min(start + (16 << 10), bytes.count))
        }
    }()
}
