import Foundation
import Hummingbird
import Moya
import NIOCore

/// Records what plugins hear about streams, and lets a test wait for `didReceive`, which may
/// come from another thread after the loop ended.
final class StreamPluginRecorder: PluginType, Sendable {
    let log = EventLog()
    let results: AsyncStream<Result<Moya.Response, MoyaError>>
    private let continuation: AsyncStream<Result<Moya.Response, MoyaError>>.Continuation
    private let sentHeaders = Synchronized<[[String: String]]>([])

    init() {
        (results, continuation) = AsyncStream.makeStream()
    }

    func willSend(_ request: RequestType, target: TargetType) {
        log.record("willSend")
        sentHeaders.update { $0.append(request.request?.allHTTPHeaderFields ?? [:]) }
    }

    func didReceive(_ result: Result<Moya.Response, MoyaError>, target: TargetType) {
        log.record("didReceive")
        continuation.yield(result)
    }

    /// The headers of every request sent, in order.
    var headers: [[String: String]] {
        sentHeaders.update { $0 }
    }

    /// The next `didReceive` result.
    func nextResult() async -> Result<Moya.Response, MoyaError>? {
        var iterator = results.makeAsyncIterator()
        return await iterator.next()
    }
}

/// A `text/event-stream` response writing `texts`, one write each, then ending.
func eventStreamResponse(_ texts: [String]) -> Hummingbird.Response {
    Hummingbird.Response(
        status: .ok,
        headers: [.contentType: "text/event-stream"],
        body: ResponseBody { writer in
            for text in texts {
                try await writer.write(ByteBuffer(string: text))
            }
            try await writer.finish(nil)
        }
    )
}

/// Streams a chunk every millisecond forever, until the client closes the connection; then
/// yields to `closed`. The pause paces the server, whose writer would otherwise buffer without
/// end and take a core.
func endlessResponse(closed: AsyncStream<Void>.Continuation, event: Bool = false) -> Hummingbird.Response {
    Hummingbird.Response(
        status: .ok,
        headers: [.contentType: event ? "text/event-stream" : "application/octet-stream"],
        body: ResponseBody { writer in
            let chunk = ByteBuffer(string: event ? "data: tick\n\n" : String(repeating: "x", count: 1024))
            do {
                while true {
                    try await writer.write(chunk)
                    try await _Concurrency.Task.sleep(nanoseconds: 1_000_000)
                }
            } catch {
                closed.yield()
                throw error
            }
        }
    )
}
