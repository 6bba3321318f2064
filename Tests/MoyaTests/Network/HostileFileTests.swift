import Foundation
import HTTPTypes
import Hummingbird
import LoopbackServer
import NIOCore
import Testing

@testable import Moya

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Server-chosen file names and odd local files: nothing the user did not ask to delete is
/// deleted, and nothing that is not a regular file is sent or blocks a thread.
@Suite("Hostile file names and odd files")
struct HostileFileTests {
    private func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("moya-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    private func makeFIFO(in directory: URL) throws -> URL {
        let url = directory.appendingPathComponent("pipe")
        guard mkfifo(url.path, 0o600) == 0 else {
            throw CocoaError(.fileWriteUnknown)
        }
        return url
    }

    // MARK: Suggested file names

    @Test(arguments: [
        "..", ".", "", "   ", "../../etc/passwd", "/etc/passwd", "a/..", "..\\..\\boot.ini", "x\u{0}y", "\r\n",
        "\u{1B}[31m",
    ])
    func aSuggestedNameAlwaysNamesANewFileInsideTheFolder(_ suggested: String) throws {
        let folder = URL(fileURLWithPath: "/downloads", isDirectory: true)
        let name = SafeFileName.make(from: suggested)
        let destination = folder.appendingPathComponent(name)
        #expect(destination.deletingLastPathComponent().standardizedFileURL.path == folder.path)
        #expect(!name.isEmpty && name != "." && name != "..")
        #expect(!name.contains("/") && !name.unicodeScalars.contains { $0.value < 0x20 })
    }

    @Test func anOrdinarySuggestedNameIsKept() {
        #expect(SafeFileName.make(from: "report 2026.pdf") == "report 2026.pdf")
        #expect(SafeFileName.make(from: "../../report.pdf") == "report.pdf")
        #expect(SafeFileName.make(from: nil) == SafeFileName.fallback)
    }

    /// Serves a 5-byte file whose `Content-Disposition` names `fileName`.
    private func addAttachment(_ router: Router<BasicRequestContext>, fileName: String) {
        router.get("file") { _, _ -> Response in
            Response(
                status: .ok,
                headers: [.contentDisposition: "attachment; filename=\"\(fileName)\""],
                body: .init(byteBuffer: ByteBuffer(string: "hello"))
            )
        }
    }

    /// A download of `/file` into `folder` under the name the server suggests, replacing a file of that name.
    private func suggestedNameDownload(_ baseURL: URL, into folder: URL) -> DynamicTarget {
        DynamicTarget(baseURL: baseURL, path: "/file") {
            .downloadDestination(DownloadRequest.suggestedDestination(in: folder, options: [.removePreviousFile]))
        }
    }

    @Test(arguments: ["..", "."])
    func aServerNamingTheFolderOrItsParentNeverDeletesThem(_ fileName: String) async throws {
        let parent = try temporaryDirectory()
        let folder = parent.appendingPathComponent("Downloads")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let precious = folder.appendingPathComponent("thesis.txt")
        try Data("years of work".utf8).write(to: precious)

        try await TestServer.with({ addAttachment($0, fileName: fileName) }) { server in
            let target = suggestedNameDownload(server.baseURL, into: folder)
            let response = try await MoyaProvider<DynamicTarget>().request(target)
            #expect(try Data(contentsOf: precious) == Data("years of work".utf8))
            #expect(
                response.fileURL?.deletingLastPathComponent().standardizedFileURL.path
                    == folder.standardizedFileURL.path
            )
            #expect(response.fileURL.map { try? Data(contentsOf: $0) } == Data("hello".utf8))
        }
    }

    @Test func aServerNamingAnExistingDirectoryFailsInsteadOfReplacingIt() async throws {
        let folder = try temporaryDirectory()
        let photos = folder.appendingPathComponent("Photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        let photo = photos.appendingPathComponent("cat.jpg")
        try Data("meow".utf8).write(to: photo)

        try await TestServer.with({ addAttachment($0, fileName: "Photos") }) { server in
            let target = suggestedNameDownload(server.baseURL, into: folder)
            await #expect(throws: MoyaError.self) {
                try await MoyaProvider<DynamicTarget>().request(target)
            }
            let kept = try Data(contentsOf: photo)
            #expect(kept == Data("meow".utf8))
        }
    }

    @Test func anExplicitDestinationWithRemovePreviousFileStillReplacesAFile() async throws {
        let folder = try temporaryDirectory()
        let file = folder.appendingPathComponent("latest.txt")
        try Data("old".utf8).write(to: file)
        try await TestServer.with({ addAttachment($0, fileName: "ignored") }) { server in
            let target = DynamicTarget.download(server.baseURL, path: "/file", to: file, options: [.removePreviousFile])
            _ = try await MoyaProvider<DynamicTarget>().request(target)
            #expect(try Data(contentsOf: file) == Data("hello".utf8))
        }
    }

    // MARK: Uploads of files that are not regular files

    /// Counts the requests that reach `/upload`.
    private func addUpload(_ router: Router<BasicRequestContext>, received: Counter) {
        router.post("upload") { request, _ -> Response in
            received.increment()
            let body = try await request.body.collect(upTo: 1 << 20)
            return Response(status: .ok, body: .init(byteBuffer: body))
        }
    }

    private func expectNotARegularFile(_ kind: FileKind, task: @escaping @Sendable () -> Moya.Task) async throws {
        let received = Counter()
        try await TestServer.with({ addUpload($0, received: received) }) { server in
            let target = DynamicTarget(baseURL: server.baseURL, path: "/upload", method: .post, makeTask: task)
            do {
                _ = try await MoyaProvider<DynamicTarget>().request(target)
                Issue.record("uploading \(kind) must fail")
            } catch {
                guard case .underlying(let inner as MoyaClientError, nil) = error as? MoyaError,
                    inner.code == .notARegularFile
                else {
                    Issue.record("expected MoyaClientError notARegularFile, got \(error)")
                    return
                }
                #expect(inner.description.contains("is \(kind), not a regular file"))
                #expect(error.localizedDescription.contains("not a regular file"))
            }
            // Nothing was sent: a request that reached the server would have been counted
            // before its response could fail the upload.
            #expect(received.count == 0)
        }
    }

    @Test func uploadingAFIFOFailsBeforeSendingAnything() async throws {
        let fifo = try makeFIFO(in: try temporaryDirectory())
        try await expectNotARegularFile(.fifo) { .uploadFile(fifo) }
    }

    @Test func uploadingADirectoryFailsBeforeSendingAnything() async throws {
        let directory = try temporaryDirectory()
        try await expectNotARegularFile(.directory) { .uploadFile(directory) }
    }

    @Test func aMultipartFIFOPartFailsBeforeSendingAndLaterUploadsStillWork() async throws {
        let folder = try temporaryDirectory()
        let fifo = try makeFIFO(in: folder)
        try await expectNotARegularFile(.fifo) {
            .uploadMultipart([MultipartFormData(provider: .file(fifo), name: "file")])
        }
        // The shared thread pool is free: a regular file uploads as usual.
        let file = folder.appendingPathComponent("ok.txt")
        try Data("fine".utf8).write(to: file)
        #expect(try await uploaded(file) == Data("fine".utf8))
    }

    @Test(.timeLimit(.minutes(1)))
    func openingAFIFOForUploadNeverBlocks() throws {
        let fifo = try makeFIFO(in: try temporaryDirectory())
        // A blocking open would wait here forever for a writer.
        #expect(throws: MoyaClientError.notARegularFile(path: fifo.path, kind: .fifo)) {
            _ = try UploadableFile.openForReading(fifo)
        }
    }

    @Test func aSymbolicLinkToARegularFileIsUploaded() async throws {
        let folder = try temporaryDirectory()
        let file = folder.appendingPathComponent("real.txt")
        try Data("linked".utf8).write(to: file)
        let link = folder.appendingPathComponent("link.txt")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: file)
        #expect(try await uploaded(link) == Data("linked".utf8))
    }

    /// Uploads `file` with `uploadFile` and returns the bytes the server received.
    private func uploaded(_ file: URL) async throws -> Data {
        try await TestServer.with({ addUpload($0, received: Counter()) }) { server in
            let target = DynamicTarget(baseURL: server.baseURL, path: "/upload", method: .post) { .uploadFile(file) }
            return try await MoyaProvider<DynamicTarget>().request(target).data
        }
    }
}
