import Foundation
import HTTPTypes
import Hummingbird
import LoopbackServer
import Moya
import NIOCore
import Testing

@Suite("Uploads, downloads, progress and timeouts over the network")
struct NetworkTransferTests {
    let queue = DispatchQueue(label: "network-transfer-tests")

    private func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("moya-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Echoes the body back with the request's Content-Type and Content-Length in headers.
    private func addEcho(_ router: Router<BasicRequestContext>) {
        router.post("echo") { request, _ -> Response in
            let body = try await request.body.collect(upTo: 64 << 20)
            var headers = HTTPFields()
            headers[HTTPField.Name("X-Content-Type")!] = request.headers[.contentType] ?? "none"
            headers[HTTPField.Name("X-Content-Length")!] = request.headers[.contentLength] ?? "none"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: body))
        }
    }

    @Test func uploadFileStreamsTheFileWithItsLength() async throws {
        let directory = try temporaryDirectory()
        let file = directory.appendingPathComponent("upload.bin")
        let content = Data((0..<300_000).map { UInt8($0 % 251) })
        try content.write(to: file)

        try await TestServer.with(addEcho) { server in
            let provider = MoyaProvider<DynamicTarget>()
            let target = DynamicTarget(
                baseURL: server.baseURL,
                path: "/echo",
                method: .post,
                makeTask: { .uploadFile(file) }
            )
            let response = try await provider.request(target)
            #expect(response.data == content)
            #expect(response.response?.value(forHTTPHeaderField: "X-Content-Length") == "300000")
        }
    }

    @Test func uploadOfAMissingFileFailsWithUnderlyingAndNoResponse() async throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-file-\(UUID().uuidString)")
        try await TestServer.with(addEcho) { server in
            let provider = MoyaProvider<DynamicTarget>()
            let target = DynamicTarget(
                baseURL: server.baseURL,
                path: "/echo",
                method: .post,
                makeTask: { .uploadFile(missing) }
            )
            do {
                _ = try await provider.request(target)
                Issue.record("a missing file must fail")
            } catch {
                guard case .underlying(_, nil) = error as? MoyaError else {
                    Issue.record("expected .underlying(_, nil), got \(error)")
                    return
                }
            }
        }
    }

    @Test func uploadReportsProgressEndingCompleted() async throws {
        let directory = try temporaryDirectory()
        let file = directory.appendingPathComponent("progress.bin")
        try Data(repeating: 7, count: 1_000_000).write(to: file)
        let log = EventLog()

        try await TestServer.with(addEcho) { server in
            let provider = MoyaProvider<DynamicTarget>()
            let target = DynamicTarget(
                baseURL: server.baseURL,
                path: "/echo",
                method: .post,
                makeTask: { .uploadFile(file) }
            )
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                provider.request(
                    target,
                    callbackQueue: queue,
                    progress: { progress in
                        log.record("\(progress.progress) \(progress.completed)")
                    },
                    completion: { _ in continuation.resume() }
                )
            }
        }
        let events = log.all
        #expect(events.count >= 2)
        #expect(events.last == "1.0 true")
        let fractions = events.compactMap { Double($0.split(separator: " ")[0]) }
        #expect(fractions == fractions.sorted())
    }

    @Test func downloadMovesTheFileToItsDestinationAndReportsIt() async throws {
        let directory = try temporaryDirectory()
        let destinationURL = directory.appendingPathComponent("nested/dir/file.bin")
        let payload = Data((0..<2_000_000).map { UInt8($0 % 253) })

        try await TestServer.with({ router in
            router.get("file") { _, _ in Response(status: .ok, body: .init(byteBuffer: ByteBuffer(bytes: payload))) }
        }) { server in
            let provider = MoyaProvider<DynamicTarget>()
            let target = DynamicTarget.download(
                server.baseURL,
                path: "/file",
                to: destinationURL,
                options: [.createIntermediateDirectories]
            )
            let response = try await provider.request(target)
            #expect(response.fileURL == destinationURL)
            #expect(try Data(contentsOf: destinationURL) == payload)
            #expect(response.data.isEmpty)
        }
    }

    @Test func downloadReplacesAnExistingFileOnlyWhenAsked() async throws {
        let directory = try temporaryDirectory()
        let destinationURL = directory.appendingPathComponent("existing.txt")
        try Data("old".utf8).write(to: destinationURL)

        try await TestServer.with({ router in
            router.get("file") { _, _ in "new" }
        }) { server in
            let provider = MoyaProvider<DynamicTarget>()
            let keep = DynamicTarget.download(server.baseURL, path: "/file", to: destinationURL)
            await #expect(throws: MoyaError.self) { try await provider.request(keep) }
            #expect(try String(contentsOf: destinationURL, encoding: .utf8) == "old")

            let replace = DynamicTarget.download(
                server.baseURL,
                path: "/file",
                to: destinationURL,
                options: [.removePreviousFile]
            )
            _ = try await provider.request(replace)
            #expect(try String(contentsOf: destinationURL, encoding: .utf8) == "new")
        }
    }

    @Test func downloadOfAnErrorPageLeavesNothingAtTheDestination() async throws {
        let directory = try temporaryDirectory()
        let destinationURL = directory.appendingPathComponent("never.txt")

        try await TestServer.with({ router in
            router.get("missing") { _, _ in
                Response(status: .notFound, body: .init(byteBuffer: ByteBuffer(string: "no such file")))
            }
        }) { server in
            let provider = MoyaProvider<DynamicTarget>()
            let target = DynamicTarget.download(
                server.baseURL,
                path: "/missing",
                to: destinationURL,
                options: [.removePreviousFile]
            )
            let response = try await provider.request(target)
            #expect(response.statusCode == 404)
            #expect(try response.mapString() == "no such file")
            #expect(response.fileURL == nil)
            #expect(!FileManager.default.fileExists(atPath: destinationURL.path))
        }
    }
}
