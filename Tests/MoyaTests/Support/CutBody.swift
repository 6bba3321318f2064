import Foundation
import Moya

extension RawServer {
    /// A server that announces 1 MiB, writes `sent` bytes of it and closes the connection; the
    /// stream yields each time it has written everything and closed.
    static func startCuttingBody(after sent: Int) async throws -> (server: RawServer, closings: AsyncStream<Void>) {
        let (closed, closedSignal) = AsyncStream<Void>.makeStream()
        let server = try await RawServer.start(
            response: "HTTP/1.1 200 OK\r\nContent-Length: \(1 << 20)\r\n\r\n" + String(repeating: "x", count: sent),
            ending: .close,
            ended: { closedSignal.yield() }
        )
        return (server, closed)
    }
}

/// Reads a streamed body to its end: the bytes received, and the failure that ended it, if any.
func readCounting(_ streamed: StreamedResponse) async -> (received: Int, failure: MoyaError?) {
    var received = 0
    do {
        for try await chunk in streamed.chunks {
            received += chunk.count
        }
        return (received, nil)
    } catch {
        return (received, error)
    }
}
