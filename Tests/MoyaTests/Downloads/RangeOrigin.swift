import Foundation
import HTTPTypes
import Hummingbird
import LoopbackServer
import NIOCore

/// A loopback origin serving one file the way real servers do, or fail to: byte ranges with
/// `If-Range` (or none at all), a connection dropped part-way, a body held open until the
/// test lets it go. It records the range headers of every request it gets.
final class RangeOrigin: Sendable {
    struct Behavior: Sendable {
        /// Whether `Range` is honoured; a server without range support always sends the whole.
        var supportsRanges = true
        /// How many of the first responses are cut after `dropFraction` of their body.
        var droppedResponses = 0
        var dropFraction = 0.4
        /// Whether the first response waits, after `dropFraction` of its body, for `release()`.
        var holdsFirstResponse = false
    }

    /// The range headers one request carried.
    struct Seen: Equatable, Sendable {
        var range: String?
        var ifRange: String?
    }

    private struct State {
        var content: Data
        var version: Int
        var seen: [Seen] = []
    }

    private let state: Synchronized<State>
    private let behavior: Behavior
    private let gate = AsyncStream<Void>.makeStream()

    init(content: Data, behavior: Behavior = Behavior()) {
        self.state = Synchronized(State(content: content, version: 1))
        self.behavior = behavior
    }

    /// The current file's entity tag.
    var etag: String { state.update { "\"v\($0.version)\"" } }

    /// The current file's bytes.
    var content: Data { state.update { $0.content } }

    /// What every request so far asked for.
    var seen: [Seen] { state.update { $0.seen } }

    /// Replaces the file: a new version with a new entity tag.
    func change(to content: Data) {
        state.update {
            $0.content = content
            $0.version += 1
        }
    }

    /// Lets a held response go on (it fails: its client has left).
    func release() {
        gate.continuation.finish()
    }

    /// Adds the file at `/file`.
    func install(on router: Router<BasicRequestContext>) {
        router.get("file") { request, _ in
            self.respond(to: request)
        }
    }

    private func respond(to request: Request) -> Hummingbird.Response {
        let range = request.headers[.range]
        let ifRange = request.headers[.ifRange]
        let (content, etag, number) = state.update { state in
            state.seen.append(Seen(range: range, ifRange: ifRange))
            return (state.content, "\"v\(state.version)\"", state.seen.count)
        }
        var start = 0
        var status = HTTPResponse.Status.ok
        var headers: HTTPFields = [.eTag: etag]
        if behavior.supportsRanges, let range, ifRange == nil || ifRange == etag,
            let first = Self.firstOffset(range)
        {
            guard first < content.count else {
                headers[.contentRange] = "bytes */\(content.count)"
                return Hummingbird.Response(status: .rangeNotSatisfiable, headers: headers)
            }
            start = first
            status = .partialContent
            headers[.contentRange] = "bytes \(first)-\(content.count - 1)/\(content.count)"
        }
        let body = content[start...]
        headers[.contentLength] = String(body.count)
        let cutAt =
            number <= behavior.droppedResponses || (number == 1 && behavior.holdsFirstResponse)
            ? Int(Double(body.count) * behavior.dropFraction) : nil
        let holds = number == 1 && behavior.holdsFirstResponse
        let gate = self.gate.stream
        return Hummingbird.Response(
            status: status,
            headers: headers,
            body: ResponseBody { writer in
                let end = cutAt ?? body.count
                var offset = 0
                while offset < end {
                    let next = min(end, offset + 16_384)
                    let slice = body[(body.startIndex + offset)..<(body.startIndex + next)]
                    try await writer.write(ByteBuffer(bytes: slice))
                    offset = next
                }
                if holds {
                    for await _ in gate {}
                }
                if cutAt != nil {
                    // Ends the connection without the rest of the announced body.
                    throw CancellationError()
                }
                try await writer.finish(nil)
            }
        )
    }

    /// `N` of `bytes=N-`.
    private static func firstOffset(_ range: String) -> Int? {
        guard range.hasPrefix("bytes="), range.hasSuffix("-") else { return nil }
        return Int(range.dropFirst("bytes=".count).dropLast())
    }
}
