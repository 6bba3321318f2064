import Foundation
import Hummingbird
import LoopbackServer
import NIOCore
import Testing

@testable import Moya

/// Downloads and cancels, the same through every transport: a file moves into place only for a
/// complete `2xx`, and no temporary file outlives its request.
@Suite("Transport contract: downloads and cancels")
struct TransportContractTransferTests {
    private static let payload = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 * 7) })

    private func addRoutes(_ router: Router<BasicRequestContext>, closed: AsyncStream<Void>.Continuation? = nil) {
        router.get("file") { _, _ in
            Hummingbird.Response(status: .ok, body: .init(byteBuffer: ByteBuffer(bytes: Self.payload)))
        }
        router.get("missing") { _, _ in
            Hummingbird.Response(status: .notFound, body: .init(byteBuffer: ByteBuffer(string: "no such file")))
        }
        router.get("endless") { _, _ in
            Hummingbird.Response(
                status: .ok,
                body: ResponseBody { writer in
                    do {
                        // Far more than the client reads before it cancels: only a closed
                        // connection ends this loop early.
                        for _ in 0..<100_000 {
                            try await writer.write(ByteBuffer(repeating: 1, count: 64 * 1024))
                        }
                        try await writer.finish(nil)
                    } catch {
                        closed?.yield()
                        throw error
                    }
                }
            )
        }
    }

    @Test(arguments: TransportUnderTest.allCases)
    func aDownloadReportsProgressAndMovesTheCompleteFileIntoPlace(_ transport: TransportUnderTest) async throws {
        let temporary = try TransportUnderTest.makeDirectory()
        let destination = try TransportUnderTest.makeDirectory().appendingPathComponent("file.bin")
        try await TestServer.with({ addRoutes($0) }) { server in
            let provider = transport.provider(.init(temporaryDirectory: temporary, cookieStorage: nil))
            var fractions: [Double] = []
            var response: Moya.Response?
            for try await event in provider.requestWithProgress(
                .download(server.baseURL, path: "/file", to: destination)
            ) {
                if let done = event.response {
                    response = done
                } else {
                    fractions.append(event.progress)
                }
            }
            #expect(response?.fileURL == destination)
            #expect(try Data(contentsOf: destination) == Self.payload)
            #expect(fractions.last == 1)
            #expect(fractions == fractions.sorted())
            #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).isEmpty)
        }
    }

    @Test(arguments: TransportUnderTest.allCases)
    func aFailedDownloadMovesNothingAndLeavesNoTemporaryFile(_ transport: TransportUnderTest) async throws {
        let temporary = try TransportUnderTest.makeDirectory()
        let destination = try TransportUnderTest.makeDirectory().appendingPathComponent("never.bin")
        try await TestServer.with({ addRoutes($0) }) { server in
            let provider = transport.provider(.init(temporaryDirectory: temporary, cookieStorage: nil))
            let response = try await provider.request(.download(server.baseURL, path: "/missing", to: destination))
            #expect(response.statusCode == 404)
            #expect(response.fileURL == nil)
            #expect(try response.mapString() == "no such file")
            #expect(!FileManager.default.fileExists(atPath: destination.path))
            #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).isEmpty)
        }
    }

    @Test(.timeLimit(.minutes(1)), arguments: TransportUnderTest.allCases)
    func aCancelledDownloadCompletesOnceCancelledAndLeavesNoFile(_ transport: TransportUnderTest) async throws {
        let temporary = try TransportUnderTest.makeDirectory()
        let destination = try TransportUnderTest.makeDirectory().appendingPathComponent("never.bin")
        let (closed, closedContinuation) = AsyncStream<Void>.makeStream()
        try await TestServer.with({ addRoutes($0, closed: closedContinuation) }) { server in
            let provider = transport.provider(.init(temporaryDirectory: temporary, cookieStorage: nil))
            let queue = DispatchQueue(label: "contract-cancel")
            let completions = Synchronized<[Result<Moya.Response, MoyaError>]>([])
            let token = Synchronized<Cancellable?>(nil)
            let progressed = Synchronized(false)
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let cancellable = provider.request(
                    .download(server.baseURL, path: "/endless", to: destination),
                    callbackQueue: queue,
                    progress: { progress in
                        // Cancels from the first progress with bytes moved: mid-body.
                        guard (progress.progressObject?.completedUnitCount ?? 0) > 0 else { return }
                        let first = progressed.update { flag in
                            defer { flag = true }
                            return !flag
                        }
                        if first {
                            token.update { $0 }?.cancel()
                        }
                    },
                    completion: { result in
                        completions.update { $0.append(result) }
                        continuation.resume()
                    }
                )
                token.update { $0 = cancellable }
                if progressed.update({ $0 }) {
                    cancellable.cancel()
                }
            }
            // A second completion would run on the same serial queue: let it drain first.
            queue.sync {}
            let results = completions.update { $0 }
            #expect(results.count == 1)
            guard case .failure(let error)? = results.first else {
                Issue.record("expected the cancelled error, got \(results)")
                return
            }
            #expect(error.isCancellation)
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: temporary.path)
            #expect(leftovers.isEmpty)
            #expect(!FileManager.default.fileExists(atPath: destination.path))
            // The server's writes fail only once the client closed the connection.
            for await _ in closed { break }
        }
    }
}
