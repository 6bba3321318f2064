import Foundation
import Hummingbird
import LoopbackServer
import Moya
import NIOCore
import Testing

@Suite("Cancelling uploads and downloads mid-transfer")
struct NetworkTransferCancellationTests {
    let queue = DispatchQueue(label: "network-transfer-cancellation-tests")

    private func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("moya-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Sends `target`, cancels it when the first progress with bytes moved arrives, and returns
    /// every completion it received.
    private func sendAndCancelOnFirstProgress(
        _ target: DynamicTarget,
        provider: MoyaProvider<DynamicTarget>
    ) async -> [Result<Moya.Response, MoyaError>] {
        let cancelSwitch = CancelSwitch()
        let completions = Synchronized<[Result<Moya.Response, MoyaError>]>([])
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let token = provider.request(
                target,
                callbackQueue: queue,
                progress: { progress in
                    if (progress.progressObject?.completedUnitCount ?? 0) > 0 {
                        cancelSwitch.flip()
                    }
                },
                completion: { result in
                    completions.update { $0.append(result) }
                    continuation.resume()
                }
            )
            cancelSwitch.attach(token)
        }
        // A second completion would run on the same serial queue: let it drain first.
        queue.sync {}
        return completions.update { $0 }
    }

    @Test(.timeLimit(.minutes(1)))
    func cancelDuringDownloadCompletesCancelledOnceAndLeavesNoFileOrConnection() async throws {
        let directory = try temporaryDirectory()
        let downloads = try temporaryDirectory()
        let destinationURL = directory.appendingPathComponent("never.bin")
        let (closed, closedContinuation) = AsyncStream<Void>.makeStream()

        try await TestServer.with({ router in
            router.get("endless") { _, _ -> Response in
                Response(
                    status: .ok,
                    body: ResponseBody { writer in
                        let chunk = ByteBuffer(repeating: 1, count: 64 * 1024)
                        do {
                            // Far more than the client reads before it cancels: only a closed
                            // connection ends this loop early.
                            for _ in 0..<100_000 {
                                try await writer.write(chunk)
                            }
                            try await writer.finish(nil)
                        } catch {
                            closedContinuation.yield()
                            throw error
                        }
                    }
                )
            }
        }) { server in
            let session = Session(configuration: .init(temporaryDirectory: downloads))
            let provider = MoyaProvider<DynamicTarget>(session: session)
            let target = DynamicTarget.download(server.baseURL, path: "/endless", to: destinationURL)

            let completions = await sendAndCancelOnFirstProgress(target, provider: provider)

            #expect(completions.count == 1)
            guard case .failure(let error)? = completions.first else {
                Issue.record("expected a cancellation, got \(completions)")
                return
            }
            #expect(error.isCancellation)
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: downloads.path)
            #expect(leftovers.isEmpty)
            #expect(!FileManager.default.fileExists(atPath: destinationURL.path))
            // The server's writes fail only once the client closed the connection.
            for await _ in closed { break }
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func cancelDuringUploadCompletesCancelledOnceAndClosesTheConnection() async throws {
        let directory = try temporaryDirectory()
        let file = directory.appendingPathComponent("large.bin")
        try Data(repeating: 3, count: 64 << 20).write(to: file)
        let (closed, closedContinuation) = AsyncStream<Void>.makeStream()
        let (clientDone, clientDoneContinuation) = AsyncStream<Void>.makeStream()

        try await TestServer.with({ router in
            router.post("sink") { request, _ -> Response in
                var body = request.body.makeAsyncIterator()
                do {
                    // Take one chunk, then stop reading until the client is done: the upload
                    // cannot get far past the socket buffers, so it is mid-body when cancelled.
                    _ = try await body.next()
                    for await _ in clientDone { break }
                    while try await body.next() != nil {}
                } catch {
                    closedContinuation.yield()
                    throw error
                }
                return Response(status: .ok)
            }
        }) { server in
            let provider = MoyaProvider<DynamicTarget>()
            let target = DynamicTarget(
                baseURL: server.baseURL,
                path: "/sink",
                method: .post,
                makeTask: { .uploadFile(file) }
            )

            let completions = await sendAndCancelOnFirstProgress(target, provider: provider)
            clientDoneContinuation.yield()

            #expect(completions.count == 1)
            guard case .failure(let error)? = completions.first else {
                Issue.record("expected a cancellation, got \(completions)")
                return
            }
            #expect(error.isCancellation)
            // The request body ends in an error on the server only when the connection closed.
            for await _ in closed { break }
        }
    }
}

/// Cancels a request from a callback that may run before the request's token exists.
private final class CancelSwitch: Sendable {
    private let state = Synchronized<(token: Cancellable?, flipped: Bool)>((nil, false))

    func attach(_ token: Cancellable) {
        let cancelNow = state.update { state in
            state.token = token
            return state.flipped
        }
        if cancelNow {
            token.cancel()
        }
    }

    func flip() {
        let token = state.update { state in
            state.flipped = true
            return state.token
        }
        token?.cancel()
    }
}
