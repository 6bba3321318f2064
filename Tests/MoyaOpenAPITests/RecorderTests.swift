#if OpenAPI
import Foundation
import LoopbackServer
import Moya
import MoyaOpenAPI
import MoyaTesting
import Testing

@Suite("Recording a generated client's operations and replaying them offline")
struct RecorderTests {
    @Test func anOperationRecordedOnceIsReplayedWithNoServerUnderAFixtureNamedByItsOperationID() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("moya-openapi-fixtures-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let hits = Counter()
        let server = try await TestServer.start { NotesRoutes.greetings($0, hits: hits) }

        let recording = MoyaProvider<OpenAPIOperation>(
            recorder: Recorder(directory: directory, mode: .record),
            session: isolatedSession()
        )
        let recorded = try await makeClient(server.baseURL, provider: recording)
            .getGreeting(path: .init(name: "Ada"), query: .init(language: "fr")).ok.body.json

        let fixtures = try FileManager.default.contentsOfDirectory(
            atPath: directory.appendingPathComponent("OpenAPIOperation").path
        )
        #expect(fixtures.count == 1)
        #expect(fixtures.first?.hasPrefix("getGreeting-GET-") == true, "\(fixtures)")

        // Replayed against an address where nothing listens.
        let replaying = MoyaProvider<OpenAPIOperation>(
            recorder: Recorder(directory: directory, mode: .replay),
            session: isolatedSession()
        )
        let replayed = try await makeClient(TestServer.unreachableBaseURL, provider: replaying)
            .getGreeting(path: .init(name: "Ada"), query: .init(language: "fr")).ok.body.json
        #expect(replayed == recorded)
        #expect(replayed.message == "Bonjour, Ada!")
        #expect(hits.count == 1)
    }

    @Test func aStreamedDownloadIsRecordedAndReplayedToo() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("moya-openapi-fixtures-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try await TestServer.start { NotesRoutes.blobs($0) }

        let recording = MoyaProvider<OpenAPIOperation>(
            recorder: Recorder(directory: directory, mode: .record),
            session: isolatedSession()
        )
        let body = try await makeClient(server.baseURL, provider: recording).downloadBlob(path: .init(size: 1000))
            .ok.body.binary
        let recorded = try await [UInt8](collecting: body, upTo: 1 << 20)

        let replaying = MoyaProvider<OpenAPIOperation>(
            recorder: Recorder(directory: directory, mode: .replay),
            session: isolatedSession()
        )
        let replayedBody = try await makeClient(TestServer.unreachableBaseURL, provider: replaying)
            .downloadBlob(path: .init(size: 1000)).ok.body.binary
        let replayed = try await [UInt8](collecting: replayedBody, upTo: 1 << 20)
        #expect(recorded.count == 1000)
        #expect(replayed == recorded)
    }
}
#endif
