import Foundation
import Moya
import MoyaTesting
import Testing

@Suite("Replayed fixtures through a network behaviour")
struct NetworkBehaviorReplayTests {
    /// What a replayed request came to: a status and body, or a failure's code.
    private enum Answer: Hashable {
        case response(Int, Data)
        case failure(Int)
    }

    private func replay(_ provider: MoyaProvider<Catalog>, count: Int) async -> [Answer] {
        var answers: [Answer] = []
        for _ in 0..<count {
            do {
                let response = try await provider.request(.items(page: 1))
                answers.append(.response(response.statusCode, response.data))
            } catch {
                guard case .underlying(let inner, nil) = error else {
                    answers.append(.failure(0))
                    continue
                }
                answers.append(.failure((inner as NSError).code))
            }
        }
        return answers
    }

    @Test func replayedFixturesFailAndErrAsTheSeedSays() async throws {
        let folder = try TemporaryDirectory()
        let hits = HitCounter()
        let server = try await CatalogServer.start(hits: hits)
        let live = try await MoyaProvider<Catalog>(
            recorder: Recorder(directory: folder.url, mode: .record),
            endpointClosure: Catalog.endpoints(at: server.baseURL)
        ).request(.items(page: 1))

        let busy = Data("busy".utf8)
        func replaying(seed: UInt64) -> MoyaProvider<Catalog> {
            MoyaProvider<Catalog>(
                recorder: Recorder(directory: folder.url, mode: .replay),
                networkBehavior: NetworkBehavior(
                    failurePercent: 30,
                    failure: URLError(.timedOut),
                    errorPercent: 30,
                    errorResponse: .init(statusCode: 503, body: busy),
                    seed: seed
                ),
                endpointClosure: Catalog.endpoints(at: Catalog.unreachable)
            )
        }
        let answers = await replay(replaying(seed: 99), count: 30)

        #expect(await replay(replaying(seed: 99), count: 30) == answers)
        #expect(Set(answers) == [.response(200, live.data), .response(503, busy), .failure(NSURLErrorTimedOut)])
        #expect(await hits.count("/items") == 1, "replay must not reach the server")
    }

    @Test func theRecordersPartsComposeWithABehaviour() throws {
        let folder = try TemporaryDirectory()
        let behavior = NetworkBehavior(delay: 0.4, variance: 0.5, seed: 3)
        let replay: MoyaProvider<Catalog>.StubClosure = behavior.stubClosure(
            wrapping: Recorder(directory: folder.url, mode: .replay).stubClosure()
        )
        let record: MoyaProvider<Catalog>.StubClosure = behavior.stubClosure(
            wrapping: Recorder(directory: folder.url, mode: .record).stubClosure()
        )

        guard case .delayed(let seconds) = replay(.binary) else {
            Issue.record("a replayed request is delayed")
            return
        }
        #expect((0.2...0.6).contains(seconds))
        #expect(record(.binary) == .never, "a recorded request goes to the network as it is")
    }

    @Test func recordingIsLeftAloneAndOnlyExistingFixturesAreAffected() async throws {
        let folder = try TemporaryDirectory()
        let hits = HitCounter()
        let server = try await CatalogServer.start(hits: hits)
        let provider = MoyaProvider<Catalog>(
            recorder: Recorder(directory: folder.url, mode: .recordMissing),
            networkBehavior: NetworkBehavior(failurePercent: 100, seed: 1),
            endpointClosure: Catalog.endpoints(at: server.baseURL)
        )

        let recorded = try await provider.request(.items(page: 1))
        #expect(recorded.statusCode == 200)
        #expect(folder.files().count == 1)

        let error = await #expect(throws: MoyaError.self) { try await provider.request(.items(page: 1)) }
        guard case .underlying(let inner, nil)? = error else {
            Issue.record("expected the behaviour's failure, got \(String(describing: error))")
            return
        }
        #expect((inner as NSError).code == NSURLErrorNetworkConnectionLost)
        #expect(await hits.count("/items") == 1)
        #expect(folder.files().count == 1)
    }
}
