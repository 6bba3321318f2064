#if OpenAPI
import Foundation
import HTTPTypes
import LoopbackServer
import Moya
import MoyaOpenAPI
import OpenAPIRuntime
import Testing

@Suite("The generated client through MoyaTransport, against the loopback server")
struct GeneratedClientTests {
    @Test func aJSONGetSendsItsPathAndQueryParametersAndDecodesTheResponse() async throws {
        let server = try await TestServer.start { NotesRoutes.greetings($0) }
        let client = makeClient(server.baseURL, provider: MoyaProvider(session: isolatedSession()))
        let output = try await client.getGreeting(path: .init(name: "Ada Lovelace"), query: .init(language: "fr"))
        // The space in the path parameter arrives decoded once: the generated code's encoding
        // was kept, not encoded again.
        #expect(try output.ok.body.json.message == "Bonjour, Ada Lovelace!")
    }

    @Test func aJSONPostSendsItsBodyAndDecodesTheCreatedResource() async throws {
        let seen = SeenRequests()
        let server = try await TestServer.start { NotesRoutes.notes($0, seen: seen) }
        let client = makeClient(server.baseURL, provider: MoyaProvider(session: isolatedSession()))
        let note = try await client.createNote(body: .json(.init(title: "Plans", text: "Build the engine"))).created
        #expect(try note.body.json == .init(id: 7, title: "Plans", length: 16))
        #expect(seen.all.first?[.contentType] == "application/json; charset=utf-8")
    }

    @Test func aBinaryUploadOfUnknownLengthLargerThanTheMemoryLimitArrivesWholeWithItsLength() async throws {
        let server = try await TestServer.start { NotesRoutes.uploads($0) }
        let chunk = (0..<64 * 1024).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let chunks = 48
        let (stream, continuation) = AsyncThrowingStream<HTTPBody.ByteChunk, any Error>.makeStream()
        for _ in 0..<chunks {
            continuation.yield(chunk[...])
        }
        continuation.finish()
        var expected = Checksum()
        for _ in 0..<chunks {
            expected.add(chunk)
        }
        // 3 MiB through a 256 KiB memory limit: spooled to a file, sent with its length.
        let client = makeClient(
            server.baseURL,
            provider: MoyaProvider(session: isolatedSession()),
            configuration: .init(requestBodyMemoryLimit: 256 << 10)
        )
        let receipt = try await client.uploadPhoto(
            path: .init(id: "p1"),
            body: .binary(HTTPBody(stream, length: .unknown))
        )
        .ok.body.json
        #expect(receipt.bytes == Int64(chunks * chunk.count))
        #expect(receipt.checksum == expected.value)
        #expect(receipt.parts == ["content-length: \(chunks * chunk.count)"])
    }

    @Test func aSpooledRequestBodyFileIsRemovedOnceTheOperationEnds() async throws {
        let server = try await TestServer.start { NotesRoutes.uploads($0) }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("moya-openapi-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let client = makeClient(
            server.baseURL,
            provider: MoyaProvider(session: isolatedSession()),
            configuration: .init(requestBodyMemoryLimit: 1024, temporaryDirectory: directory)
        )
        let body = [UInt8](repeating: 7, count: 10_000)
        let receipt = try await client.uploadPhoto(path: .init(id: "p2"), body: .binary(HTTPBody(body))).ok.body.json
        #expect(receipt.bytes == 10_000)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [])
    }

    @Test func aMultipartUploadSendsEveryPart() async throws {
        let server = try await TestServer.start { NotesRoutes.uploads($0) }
        let client = makeClient(server.baseURL, provider: MoyaProvider(session: isolatedSession()))
        let parts: MultipartBody<Operations.UploadAttachment.Input.Body.MultipartFormPayload> = [
            .description(.init(payload: .init(body: "A photo of the engine"))),
            .file(.init(payload: .init(body: HTTPBody([UInt8](repeating: 1, count: 5000))), filename: "engine.jpg")),
        ]
        let receipt = try await client.uploadAttachment(body: .multipartForm(parts)).ok.body.json
        #expect(receipt.parts == ["description", "file"])
        #expect(receipt.bytes > 5000)
    }

    @Test func aBinaryDownloadIsStreamedToTheClientWithItsLength() async throws {
        let server = try await TestServer.start { NotesRoutes.blobs($0) }
        let client = makeClient(server.baseURL, provider: MoyaProvider(session: isolatedSession()))
        let body = try await client.downloadBlob(path: .init(size: 300_000)).ok.body.binary
        #expect(body.length == .known(300_000))
        let bytes = try await [UInt8](collecting: body, upTo: 1 << 20)
        #expect(bytes.count == 300_000)
        #expect(bytes.allSatisfy { $0 == 0x5A })
    }

    @Test func anEventStreamIsDecodedWithTheRuntimesServerSentEventHelpers() async throws {
        let server = try await TestServer.start { NotesRoutes.events($0, count: 3) }
        let client = makeClient(server.baseURL, provider: MoyaProvider(session: isolatedSession()))
        let body = try await client.streamEvents().ok.body.textEventStream
        var numbers: [Int] = []
        for try await event in body.asDecodedServerSentEventsWithJSONData(of: Components.Schemas.Tick.self) {
            #expect(event.event == "tick")
            numbers.append(event.data?.number ?? -1)
        }
        #expect(numbers == [1, 2, 3])
    }

    @Test func aStatusTheDocumentDeclaresReachesTheClientUnvalidated() async throws {
        let server = try await TestServer.start { NotesRoutes.profile($0, valid: "t1", rejections: Counter()) }
        let client = makeClient(server.baseURL, provider: MoyaProvider(session: isolatedSession()))
        let output = try await client.getProfile()
        guard case .unauthorized = output else {
            Issue.record("expected the document's 401 case, got \(output)")
            return
        }
    }

    @Test func aTransportFailureReachesTheClientAsAClientErrorCarryingTheMoyaErrorsDescription() async throws {
        let client = makeClient(TestServer.unreachableBaseURL, provider: MoyaProvider(session: isolatedSession()))
        let error = await #expect(throws: ClientError.self) {
            _ = try await client.getGreeting(path: .init(name: "Ada"))
        }
        let moyaError = try #require(error?.underlyingError as? MoyaError)
        #expect(error?.operationID == "getGreeting")
        #expect("\(try #require(error))".contains(moyaError.description))
        #expect(error?.localizedDescription.contains(moyaError.description) == true)
    }
}
#endif
