import Foundation
import Hummingbird
import Logging
import NIOCore

/// The HTTP server the network benchmarks talk to, on 127.0.0.1, in a process of its own so
/// that the benchmarks' CPU and memory figures are the client's alone.
///
/// It prints `listening on http://127.0.0.1:PORT` once it accepts connections, and runs until
/// it is killed. Routes:
/// - `GET /json`: a JSON body of about 1 KB;
/// - `POST /echo`, `POST /upload`: read the whole body, then answer `{"ok":true}` (answering
///   before the body is read, as nginx's `return` does, would end a client's measurement early);
/// - `GET /download`: `MOYA_BENCH_TRANSFER_BYTES` bytes (1 GiB by default).
///
/// Usage: `BenchmarkServer [port]` (default 0: any free port).
@main
struct BenchmarkServer {
    static func main() async throws {
        let port = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 0
        let transferBytes = ProcessInfo.processInfo.environment["MOYA_BENCH_TRANSFER_BYTES"].flatMap(Int.init) ?? 1 << 30

        let router = Router()
        let json = ByteBuffer(bytes: Self.json1KB())
        let answer = ByteBuffer(string: #"{"ok":true}"#)
        let jsonHeaders: HTTPFields = [.contentType: "application/json"]
        router.get("json") { _, _ in
            Response(status: .ok, headers: jsonHeaders, body: .init(byteBuffer: json))
        }
        for path in ["echo", "upload"] {
            router.post(RouterPath(path)) { request, _ in
                for try await _ in request.body {}
                return Response(status: .ok, headers: jsonHeaders, body: .init(byteBuffer: answer))
            }
        }
        router.get("download") { _, _ in
            let chunk = ByteBuffer(repeating: 0x61, count: 256 * 1024)
            return Response(
                status: .ok,
                headers: [.contentType: "application/octet-stream"],
                body: ResponseBody(contentLength: transferBytes) { writer in
                    var remaining = transferBytes
                    while remaining > 0 {
                        let count = min(remaining, chunk.readableBytes)
                        try await writer.write(chunk.getSlice(at: 0, length: count) ?? chunk)
                        remaining -= count
                    }
                    try await writer.finish(nil)
                }
            )
        }

        let app = Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: port)),
            onServerRunning: { channel in
                // Written unbuffered: run.sh waits for this line.
                let line = "listening on http://127.0.0.1:\(channel.localAddress?.port ?? port)\n"
                FileHandle.standardOutput.write(Data(line.utf8))
            },
            logger: Logger(label: "benchmark-server", factory: { _ in SwiftLogNoOpLogHandler() })
        )
        try await app.run()
    }

    /// About 1 KB of JSON: an array of typical API objects.
    static func json1KB() -> [UInt8] {
        let record = #"{"id":1,"name":"user 1","email":"user1@example.com","active":true,"score":1.5,"tags":["alpha","beta","gamma"]}"#
        return Array(("[" + Array(repeating: record, count: 9).joined(separator: ",") + "]").utf8)
    }
}
