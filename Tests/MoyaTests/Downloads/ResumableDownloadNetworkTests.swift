import Crypto
import Foundation
import LoopbackServer
import Moya
import Testing

/// `download(_:resuming:)` against a loopback origin: dropped, changed, range-less and
/// corrupted downloads, each checked by the digest of the file it ends with.
@Suite("Resumable downloads")
struct ResumableDownloadNetworkTests {
    /// 1 MiB of bytes that differ from one offset to the next, so that a misplaced range shows.
    private static func content(seed: UInt8 = 1) -> Data {
        Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed) &+ ($0 >> 8)) })
    }

    private static func digest(_ data: Data) -> String {
        SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
    }

    private static func digest(of file: URL) throws -> String {
        digest(try Data(contentsOf: file))
    }

    private func makeDownload() throws -> ResumableDownload {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("moya-resume-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return ResumableDownload(destination: folder.appendingPathComponent("file.bin"))
    }

    private func target(_ server: TestServer) -> DynamicTarget {
        DynamicTarget(baseURL: server.baseURL, path: "/file")
    }

    @Test(.timeLimit(.minutes(1)))
    func aConnectionDroppedAt40PercentIsResumedByTheRetryPolicyWithARange() async throws {
        let origin = RangeOrigin(content: Self.content(), behavior: .init(droppedResponses: 1))
        try await TestServer.with(origin.install) { server in
            let provider = MoyaProvider<DynamicTarget>(
                interceptor: RetryPolicy(retryLimit: 2, exponentialBackoffScale: 0.01)
            )
            let download = try makeDownload()
            let response = try await provider.download(target(server), resuming: download)

            #expect(response.statusCode == 206)
            #expect(response.fileURL == download.destination)
            #expect(try Self.digest(of: download.destination) == Self.digest(origin.content))
            let seen = origin.seen
            #expect(seen.count == 2)
            #expect(seen.first == RangeOrigin.Seen(range: nil, ifRange: nil))
            let resumedAt = try #require(seen.last?.range)
            #expect(resumedAt != "bytes=0-" && resumedAt.hasPrefix("bytes="), "the retry asks only for the rest")
            #expect(seen.last?.ifRange == origin.etag)
            #expect(!FileManager.default.fileExists(atPath: download.partialFile.path))
            #expect(!FileManager.default.fileExists(atPath: download.resumeDataFile.path))
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aFailedDownloadKeepsItsBytesAndTheNextCallAsksOnlyForTheRest() async throws {
        let origin = RangeOrigin(content: Self.content(), behavior: .init(droppedResponses: 1))
        try await TestServer.with(origin.install) { server in
            let provider = MoyaProvider<DynamicTarget>()
            let download = try makeDownload()
            await #expect(throws: MoyaError.self) {
                try await provider.download(target(server), resuming: download)
            }
            let kept = download.bytesOnDisk
            #expect(kept > 0 && kept < Int64(origin.content.count))

            let seenProgress = Synchronized<[Int64]>([])
            _ = try await provider.download(target(server), resuming: download) { value in
                seenProgress.update { $0.append(value.completedUnitCount) }
            }
            let progress = seenProgress.update { $0 }
            #expect(progress.first == kept, "progress counts from the bytes already on disk")
            #expect(progress.last == Int64(origin.content.count))
            #expect(origin.seen.last?.range == "bytes=\(kept)-")
            #expect(try Self.digest(of: download.destination) == Self.digest(origin.content))
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aDownloadCutByTheServerKeepsEveryByteThatArrived() async throws {
        // The server writes 600,000 of the 1 MiB it announced and closes the connection.
        let sent = 600_000
        let server = try await RawServer.start(
            response: "HTTP/1.1 200 OK\r\nContent-Length: \(1 << 20)\r\nETag: \"v1\"\r\nAccept-Ranges: bytes\r\n\r\n"
                + String(repeating: "x", count: sent),
            ending: .close
        )
        defer { _Concurrency.Task { await server.stop() } }
        let provider = MoyaProvider<DynamicTarget>()
        // Whether the writer is behind when the cut comes depends on how reads fall: cut often.
        for _ in 0..<8 {
            let download = try makeDownload()
            await #expect(throws: MoyaError.self) {
                try await provider.download(DynamicTarget(baseURL: server.baseURL, path: "/file"), resuming: download)
            }
            let kept = download.bytesOnDisk
            #expect(kept == Int64(sent), "a resume asks only for the bytes that never arrived")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aChangedResourceIsDownloadedAgainFromZero() async throws {
        let origin = RangeOrigin(content: Self.content(), behavior: .init(droppedResponses: 1))
        try await TestServer.with(origin.install) { server in
            let provider = MoyaProvider<DynamicTarget>()
            let download = try makeDownload()
            _ = try? await provider.download(target(server), resuming: download)
            #expect(download.bytesOnDisk > 0)

            let changed = Self.content(seed: 2)
            origin.change(to: changed)
            let response = try await provider.download(target(server), resuming: download)

            #expect(response.statusCode == 200, "If-Range with the old ETag gets the whole new file")
            #expect(origin.seen.last?.ifRange == "\"v1\"")
            #expect(try Self.digest(of: download.destination) == Self.digest(changed))
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aServerWithoutRangesSendsTheWholeFileWhichReplacesThePartial() async throws {
        let origin = RangeOrigin(
            content: Self.content(),
            behavior: .init(supportsRanges: false, droppedResponses: 1)
        )
        try await TestServer.with(origin.install) { server in
            let provider = MoyaProvider<DynamicTarget>()
            let download = try makeDownload()
            _ = try? await provider.download(target(server), resuming: download)
            #expect(download.bytesOnDisk > 0)

            let response = try await provider.download(target(server), resuming: download)

            #expect(response.statusCode == 200)
            #expect(origin.seen.last?.range != nil, "it was asked for a range")
            #expect(try Self.digest(of: download.destination) == Self.digest(origin.content))
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aPartialShorterThanItsSidecarSaysIsDownloadedAgainFromZero() async throws {
        let origin = RangeOrigin(content: Self.content(), behavior: .init(droppedResponses: 1))
        try await TestServer.with(origin.install) { server in
            let provider = MoyaProvider<DynamicTarget>()
            let download = try makeDownload()
            _ = try? await provider.download(target(server), resuming: download)
            let handle = try FileHandle(forWritingTo: download.partialFile)
            try handle.truncate(atOffset: 1000)
            try handle.close()

            _ = try await provider.download(target(server), resuming: download)

            #expect(origin.seen.last?.range == nil, "a corrupt partial is not resumed")
            #expect(try Self.digest(of: download.destination) == Self.digest(origin.content))
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aCompletePartialAnsweredWithUnsatisfiableRangeCompletes() async throws {
        let origin = RangeOrigin(content: Self.content())
        try await TestServer.with(origin.install) { server in
            let provider = MoyaProvider<DynamicTarget>()
            let download = try makeDownload()
            // A run that wrote every byte but stopped before moving the file into place.
            try origin.content.write(to: download.partialFile)
            let url = server.baseURL.appendingPathComponent("file").absoluteString
            let record = [
                #"{"version":1,"url":"\#(url)","validator":"\"v1\"","#,
                #""completeLength":1048576,"bytesWritten":1048576}"#,
            ].joined()
            try Data(record.utf8).write(to: download.resumeDataFile)

            let response = try await provider.download(target(server), resuming: download)

            #expect(response.statusCode == 416)
            #expect(origin.seen == [RangeOrigin.Seen(range: "bytes=1048576-", ifRange: "\"v1\"")])
            #expect(try Self.digest(of: download.destination) == Self.digest(origin.content))
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aCancelledDownloadKeepsItsPartialFileForTheNextRun() async throws {
        let origin = RangeOrigin(content: Self.content(), behavior: .init(holdsFirstResponse: true))
        try await TestServer.with(origin.install) { server in
            let provider = MoyaProvider<DynamicTarget>()
            let download = try makeDownload()
            let (received, signal) = AsyncStream<Int64>.makeStream()
            let task = _Concurrency.Task {
                try await provider.download(self.target(server), resuming: download) { progress in
                    signal.yield(progress.completedUnitCount)
                }
            }
            // Cancel once some bytes are on disk; the server holds the rest back.
            for await count in received where count > 0 {
                break
            }
            task.cancel()
            let result = await task.result
            origin.release()

            #expect(throws: MoyaError.self) { try result.get() }
            let kept = download.bytesOnDisk
            #expect(kept > 0, "the partial file and its sidecar stay after a cancel")
            #expect(!FileManager.default.fileExists(atPath: download.destination.path))

            _ = try await provider.download(target(server), resuming: download)
            #expect(origin.seen.last?.range == "bytes=\(kept)-")
            #expect(try Self.digest(of: download.destination) == Self.digest(origin.content))
        }
    }
}
