import Foundation
import Hummingbird
import LoopbackServer
import Moya
import Testing

/// Errors met over the wire read as what went wrong, not as a library's internal name.
@Suite("Readable errors from real requests", .timeLimit(.minutes(2)))
struct ReadableNetworkErrorTests {
    private struct Repository: Decodable {
        let name: String
        let stars: Int
    }

    private func addRepositories(hits: Counter) -> (Router<BasicRequestContext>) -> Void {
        { router in
            router.get("repositories") { _, _ -> String in
                hits.increment()
                return #"[{"name":"moya","stars":1},{"name":"alamofire","stars":"many"}]"#
            }
        }
    }

    @Test func aRequestOnAShutDownSessionFailsSayingTheSessionWasShutDown() async throws {
        let hits = Counter()
        try await TestServer.with(addRepositories(hits: hits)) { server in
            let session = Session()
            try await session.shutdown()
            let provider = MoyaProvider<DynamicTarget>(session: session)
            let target = DynamicTarget(baseURL: server.baseURL, path: "/repositories")

            do {
                _ = try await provider.request(target)
                Issue.record("a shut-down session sent a request")
            } catch {
                guard case .underlying(let inner, nil)? = error as? MoyaError,
                    let shutDown = inner as? MoyaClientError, shutDown.code == .sessionShutDown
                else {
                    Issue.record("expected .underlying(MoyaClientError sessionShutDown, nil), got \(error)")
                    return
                }
                #expect(shutDown.url?.path == "/repositories")
                for text in [error.localizedDescription, "\(error)"] {
                    #expect(text.contains("shut down"), "\(text)")
                    #expect(!text.contains("alreadyShutdown"), "\(text)")
                }
            }
        }
        #expect(hits.count == 0)
    }

    @Test func aRequestInFlightWhenTheSessionShutsDownIsCancelledSayingWhy() async throws {
        let (arrivals, arrived) = AsyncStream<Void>.makeStream()
        let (release, releaseHandler) = AsyncStream<Void>.makeStream()
        try await TestServer.with({ router in
            router.get("slow") { _, _ -> String in
                arrived.yield()
                for await _ in release { break }
                return "late"
            }
        }) { server in
            let session = Session()
            let provider = MoyaProvider<DynamicTarget>(session: session)
            async let outcome: MoyaError? = {
                do {
                    _ = try await provider.request(DynamicTarget(baseURL: server.baseURL, path: "/slow"))
                    return nil
                } catch {
                    return error as? MoyaError
                }
            }()
            for await _ in arrivals { break }
            try await session.shutdown()
            let error = try #require(await outcome)
            releaseHandler.yield()
            // Still the cancellation URLSession reports for an invalidated session's tasks.
            #expect(error.isCancellation)
            #expect(error.localizedDescription.contains("shut down"), "\(error.localizedDescription)")
        }
    }

    @Test func aDecodingFailureOfAResponseNamesWhereInTheDataItFailed() async throws {
        try await TestServer.with(addRepositories(hits: Counter())) { server in
            let provider = MoyaProvider<DynamicTarget>()
            let response = try await provider.request(DynamicTarget(baseURL: server.baseURL, path: "/repositories"))
            do {
                _ = try response.map([Repository].self)
                Issue.record("a string decoded as an Int")
            } catch {
                let description = error.localizedDescription
                #expect(description.contains("[1].stars"), "\(description)")
                #expect(!description.contains("(null)"))
            }
        }
    }
}
