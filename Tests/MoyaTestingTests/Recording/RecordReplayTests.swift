import Foundation
import Moya
import MoyaTesting
import Testing

@Suite("Recording real responses and replaying them offline")
struct RecordReplayTests {
    private func provider(_ recorder: Recorder, at base: URL) -> MoyaProvider<Catalog> {
        MoyaProvider<Catalog>(recorder: recorder, endpointClosure: Catalog.endpoints(at: base))
    }

    @Test func replayAnswersOfflineWithTheRecordedStatusHeadersAndBody() async throws {
        let folder = try TemporaryDirectory()
        let hits = HitCounter()
        let server = try await CatalogServer.start(hits: hits)

        let recording = provider(Recorder(directory: folder.url, mode: .record), at: server.baseURL)
        let live = try await recording.request(.items(page: 1))
        let liveBinary = try await recording.request(.binary)
        let liveMissing = try await recording.request(.missing)
        #expect(await hits.count("/items") == 1)

        let replaying = provider(Recorder(directory: folder.url, mode: .replay), at: Catalog.unreachable)
        let replayed = try await replaying.request(.items(page: 1))
        let replayedBinary = try await replaying.request(.binary)
        let replayedMissing = try await replaying.request(.missing)

        #expect(replayed.statusCode == 200)
        #expect(replayed.data == live.data)
        #expect(replayed.response?.value(forHTTPHeaderField: "X-Total") == "2")
        #expect(
            replayed.response?.value(forHTTPHeaderField: "Content-Type")
                == live.response?.value(forHTTPHeaderField: "Content-Type")
        )
        #expect(replayed.response?.url?.host == "127.0.0.1")
        #expect(replayed.response?.url?.port == 1)
        #expect(replayedBinary.data == liveBinary.data)
        #expect(replayedBinary.data == Data(CatalogServer.binaryBody))
        #expect(replayedMissing.statusCode == 404)
        #expect(replayedMissing.data == liveMissing.data)
        #expect(await hits.count("/items") == 1, "replay must not reach the server")
    }

    @Test func aProviderAssembledFromTheRecordersPartsRecordsAndReplays() async throws {
        let folder = try TemporaryDirectory()
        let hits = HitCounter()
        let server = try await CatalogServer.start(hits: hits)

        func assembled(_ recorder: Recorder, at base: URL) -> MoyaProvider<Catalog> {
            MoyaProvider<Catalog>(
                endpointClosure: recorder.endpointClosure(wrapping: Catalog.endpoints(at: base)),
                stubClosure: recorder.stubClosure(endpointClosure: Catalog.endpoints(at: base)),
                plugins: [recorder.plugin]
            )
        }
        let live = try await assembled(Recorder(directory: folder.url, mode: .record), at: server.baseURL).request(
            .items(page: 5)
        )
        let replayed = try await assembled(Recorder(directory: folder.url, mode: .replay), at: Catalog.unreachable)
            .request(.items(page: 5))

        #expect(replayed.data == live.data)
        #expect(await hits.count("/items") == 1)
    }

    @Test func fixturesAreNamedAfterTheTargetTypeCaseMethodAndAHash() async throws {
        let folder = try TemporaryDirectory()
        let server = try await CatalogServer.start(hits: HitCounter())
        let recording = provider(Recorder(directory: folder.url, mode: .record), at: server.baseURL)
        _ = try await recording.request(.items(page: 1))
        _ = try await recording.request(.items(page: 2))
        _ = try await recording.request(.binary)

        let files = folder.files()
        #expect(files.count == 3)
        for file in files {
            #expect(file.wholeMatch(of: /Catalog\/(items|binary)-GET-[0-9a-f]{8}\.json/) != nil, "\(file)")
        }
        #expect(files.filter { $0.hasPrefix("Catalog/items-GET-") }.count == 2)
    }

    @Test func textBodiesAreStoredAsTextAndOthersAsBase64() async throws {
        let folder = try TemporaryDirectory()
        let server = try await CatalogServer.start(hits: HitCounter())
        let recorder = Recorder(directory: folder.url, mode: .record)
        let recording = provider(recorder, at: server.baseURL)
        _ = try await recording.request(.items(page: 3))
        _ = try await recording.request(.binary)

        let endpoints = Catalog.endpoints(at: server.baseURL)
        let itemsFile = try #require(recorder.fixtureURL(for: .items(page: 3), endpointClosure: endpoints))
        let binaryFile = try #require(recorder.fixtureURL(for: .binary, endpointClosure: endpoints))
        let itemsText = try String(contentsOf: itemsFile, encoding: .utf8)
        let binaryText = try String(contentsOf: binaryFile, encoding: .utf8)
        #expect(itemsText.contains(#""bodyEncoding" : "utf8""#))
        #expect(itemsText.contains(#"\"names\":[\"first\",\"second\"]"#))
        #expect(binaryText.contains(#""bodyEncoding" : "base64""#))
        #expect(binaryText.contains(Data(CatalogServer.binaryBody).base64EncodedString()))
    }

    @Test func recordMissingRecordsOnlyWhatIsMissing() async throws {
        let folder = try TemporaryDirectory()
        let hits = HitCounter()
        let server = try await CatalogServer.start(hits: hits)
        let endpoints = Catalog.endpoints(at: server.baseURL)

        let recorder = Recorder(directory: folder.url, mode: .record)
        _ = try await provider(recorder, at: server.baseURL).request(.items(page: 1))
        #expect(await hits.count("/items") == 1)

        // Edit the recorded body: if recordMissing re-recorded page 1, the edit would be lost.
        let pageOne = try #require(recorder.fixtureURL(for: .items(page: 1), endpointClosure: endpoints))
        let original = try String(contentsOf: pageOne, encoding: .utf8)
        let edited = original.replacingOccurrences(of: #"\"first\""#, with: #"\"edited\""#)
        #expect(edited != original)
        try Data(edited.utf8).write(to: pageOne)

        let topUp = provider(Recorder(directory: folder.url, mode: .recordMissing), at: server.baseURL)
        let first = try await topUp.request(.items(page: 1))
        let second = try await topUp.request(.items(page: 2))

        #expect(await hits.count("/items") == 2, "only page 2 goes to the server")
        #expect(String(decoding: first.data, as: UTF8.self).contains("edited"))
        #expect(String(decoding: second.data, as: UTF8.self).contains(#""page":2"#))
        #expect(try String(contentsOf: pageOne, encoding: .utf8) == edited)
        let pageTwo = try #require(recorder.fixtureURL(for: .items(page: 2), endpointClosure: endpoints))
        #expect(FileManager.default.fileExists(atPath: pageTwo.path))
        #expect(folder.files().count == 2)
    }

    @Test func replayOfAMissingFixtureFailsNamingTheFile() async throws {
        let folder = try TemporaryDirectory()
        let recorder = Recorder(directory: folder.url, mode: .replay)
        let expectedFile = try #require(
            recorder.fixtureURL(for: .items(page: 9), endpointClosure: Catalog.endpoints(at: Catalog.unreachable))
        )

        let error = await #expect(throws: MoyaError.self) {
            try await provider(recorder, at: Catalog.unreachable).request(.items(page: 9))
        }

        let fixtureError = try #require(error?.fixtureError)
        #expect(fixtureError.kind == .missing)
        #expect(fixtureError.fileURL.path == expectedFile.path)
        #expect(expectedFile.path.contains("/Catalog/items-GET-"))
        #expect(error?.errorDescription?.contains(expectedFile.path) == true)
        #expect(folder.files().isEmpty)
    }

    @Test func aDamagedFixtureFailsAsUnreadable() async throws {
        let folder = try TemporaryDirectory()
        let recorder = Recorder(directory: folder.url, mode: .replay)
        let file = try #require(
            recorder.fixtureURL(for: .binary, endpointClosure: Catalog.endpoints(at: Catalog.unreachable))
        )
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("{ not a fixture".utf8).write(to: file)

        let error = await #expect(throws: MoyaError.self) {
            try await provider(recorder, at: Catalog.unreachable).request(.binary)
        }
        #expect(error?.fixtureError?.kind == .unreadable)
        #expect(error?.errorDescription?.contains(file.path) == true)
    }

    @Test func aFixtureThatCannotBeWrittenFailsTheRequestNamingTheFile() async throws {
        let folder = try TemporaryDirectory()
        let server = try await CatalogServer.start(hits: HitCounter())
        // A regular file where the fixture folder should be: nothing can be written below it.
        let blocked = folder.url.appendingPathComponent("blocked")
        try Data("a file".utf8).write(to: blocked)
        let recorder = Recorder(directory: blocked, mode: .record)

        let error = await #expect(throws: MoyaError.self) {
            try await provider(recorder, at: server.baseURL).request(.items(page: 1))
        }
        let fixtureError = try #require(error?.fixtureError)
        #expect(fixtureError.kind == .unwritable)
        #expect(fixtureError.fileURL.path.hasPrefix(blocked.path + "/Catalog/items-GET-"))
        #expect(error?.response?.statusCode == 200, "the response that could not be recorded stays available")
    }

    @Test func downloadsAreRecordedAndReplayedToTheirDestination() async throws {
        let folder = try TemporaryDirectory()
        let server = try await CatalogServer.start(hits: HitCounter())
        let liveFile = folder.url.appendingPathComponent("downloads/live.txt")
        let replayedFile = folder.url.appendingPathComponent("downloads/replayed.txt")

        let recorder = Recorder(directory: folder.url.appendingPathComponent("fixtures"), mode: .record)
        let live = try await provider(recorder, at: server.baseURL).request(.download(to: liveFile))
        #expect(live.fileURL == liveFile)

        let replayer = Recorder(directory: recorder.directory, mode: .replay)
        let replayed = try await provider(replayer, at: Catalog.unreachable).request(.download(to: replayedFile))

        #expect(replayed.statusCode == 200)
        #expect(try String(contentsOf: replayedFile, encoding: .utf8) == CatalogServer.reportBody)
        #expect(try Data(contentsOf: liveFile) == Data(contentsOf: replayedFile))
    }

    @Test func fixturesRecordedOnOneServerReplayAgainstAnother() async throws {
        let folder = try TemporaryDirectory()
        let server = try await CatalogServer.start(hits: HitCounter())
        _ = try await provider(Recorder(directory: folder.url, mode: .record), at: server.baseURL).request(
            .items(page: 4)
        )

        let other = try await CatalogServer.start(hits: HitCounter())
        let recorder = Recorder(directory: folder.url, mode: .replay)
        #expect(
            recorder.fixtureURL(for: .items(page: 4), endpointClosure: Catalog.endpoints(at: server.baseURL))
                == recorder.fixtureURL(for: .items(page: 4), endpointClosure: Catalog.endpoints(at: other.baseURL))
        )
        let response = try await provider(recorder, at: other.baseURL).request(.items(page: 4))
        #expect(String(decoding: response.data, as: UTF8.self).contains(#""page":4"#))
    }

    @Test func concurrentRecordingWritesWholeFilesAndLeavesNoTemporaryFiles() async throws {
        let folder = try TemporaryDirectory()
        let server = try await CatalogServer.start(hits: HitCounter())
        let recording = provider(Recorder(directory: folder.url, mode: .record), at: server.baseURL)

        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<24 {
                group.addTask { _ = try await recording.request(.items(page: index % 6)) }
            }
            try await group.waitForAll()
        }

        let files = folder.files()
        #expect(files.count == 6)
        #expect(files.allSatisfy { $0.hasSuffix(".json") && !$0.contains(".tmp") })
        let replaying = provider(Recorder(directory: folder.url, mode: .replay), at: Catalog.unreachable)
        for page in 0..<6 {
            let response = try await replaying.request(.items(page: page))
            #expect(String(decoding: response.data, as: UTF8.self).contains(#""page":\#(page)"#))
        }
    }
}
