#if OpenAPI
import Foundation
import Hummingbird
import LoopbackServer
import Moya
import MoyaOpenAPI
import NIOCore
import OpenAPIRuntime
import Testing

@Suite("Streamed responses: cancellation and bounded memory")
struct StreamingTests {
    @Test(.timeLimit(.minutes(1)))
    func cancellingTheTaskWhileWaitingForTheHeadCancelsTheRequest() async throws {
        let (arrived, arrival) = AsyncStream<Void>.makeStream()
        let (held, release) = AsyncStream<Void>.makeStream()
        defer { release.finish() }
        let server = try await TestServer.start { router in
            router.get("blobs/:size") { _, _ -> Response in
                arrival.yield()
                // Holds the head back until the test ends.
                for await _ in held {}
                return Response(status: .ok)
            }
        }
        let client = makeClient(server.baseURL, provider: MoyaProvider(session: isolatedSession()))
        let download = _Concurrency.Task { try await client.downloadBlob(path: .init(size: 10)) }
        for await _ in arrived { break }
        download.cancel()
        // Without cancellation reaching the request, this waits until the time limit.
        let result = await download.result
        #expect(isCancellation(result), "\(result)")
    }

    @Test(.timeLimit(.minutes(1)))
    func cancellingTheTaskReadingTheBodyClosesTheConnection() async throws {
        let (closed, closing) = AsyncStream<Void>.makeStream()
        let server = try await TestServer.start { router in
            router.get("blobs/:size") { _, _ -> Response in endless(closed: closing) }
        }
        let client = makeClient(server.baseURL, provider: MoyaProvider(session: isolatedSession()))
        let (firstChunk, firstChunkArrived) = AsyncStream<Void>.makeStream()
        let reader = _Concurrency.Task {
            let body = try await client.downloadBlob(path: .init(size: 0)).ok.body.binary
            var count = 0
            for try await chunk in body {
                count += chunk.count
                firstChunkArrived.yield()
            }
            return count
        }
        for await _ in firstChunk { break }
        reader.cancel()
        // The server's writes fail only once the client closed the connection.
        for await _ in closed { break }
        let result = await reader.result
        #expect(isCancellation(result), "\(result)")
    }

    @Test(.timeLimit(.minutes(5)))
    func aOneGigabyteDownloadThroughTheGeneratedClientStaysInBoundedMemory() async throws {
        let size = 1 << 30
        let server = try await TestServer.start { NotesRoutes.blobs($0) }
        let client = makeClient(server.baseURL, provider: MoyaProvider(session: isolatedSession()))
        let before = ResidentMemory.resetPeak()
        let body = try await client.downloadBlob(path: .init(size: Int64(size))).ok.body.binary
        var received = 0
        var mismatches = 0
        for try await chunk in body {
            received += chunk.count
            if chunk.first != 0x5A || chunk.last != 0x5A {
                mismatches += 1
            }
        }
        #expect(received == size)
        #expect(mismatches == 0)
        if let before, let peak = ResidentMemory.peak() {
            let growth = peak - before
            print("1 GiB download: resident memory \(before >> 20) MiB before, peak \(peak >> 20) MiB")
            // A body held whole would add 1 GiB; a bounded stream adds a few buffers.
            #expect(growth < 256 << 20, "peak resident memory grew by \(growth >> 20) MiB")
        }
    }
}

/// Whether the operation failed with Moya's cancelled error, as the runtime wraps it.
private func isCancellation<T>(_ result: Result<T, any Error>) -> Bool {
    guard case .failure(let error) = result else { return false }
    let underlying = (error as? ClientError)?.underlyingError ?? error
    return (underlying as? MoyaError)?.isCancellation == true
}

/// Streams 64 KiB chunks, paced a millisecond apart, until the client closes the connection;
/// then yields to `closed`. The pace keeps the server from buffering without end.
private func endless(closed: AsyncStream<Void>.Continuation) -> Response {
    Response(
        status: .ok,
        headers: [.contentType: "application/octet-stream"],
        body: ResponseBody { writer in
            let chunk = ByteBuffer(repeating: 0x5A, count: 64 << 10)
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

/// The process's resident memory, from Linux's `/proc/self/status`; `nil` elsewhere.
enum ResidentMemory {
    /// Resets the peak to the current resident size (Linux 4.0 and later) and returns that size.
    static func resetPeak() -> Int? {
        try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
        return field("VmRSS")
    }

    /// The peak resident size since the last reset.
    static func peak() -> Int? {
        field("VmHWM")
    }

    private static func field(_ name: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix(name + ":") {
            let kilobytes = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first.flatMap {
                Int($0)
            }
            return kilobytes.map { $0 * 1024 }
        }
        return nil
    }
}
#endif
