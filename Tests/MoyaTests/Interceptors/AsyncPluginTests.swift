import Foundation
import Moya
import Testing

@Suite("Async plugins prepare requests in order with the others")
struct AsyncPluginTests {
    /// Hands out tokens from an actor, as a token store would.
    private actor TokenStore {
        private var issued = 0

        func next() -> String {
            issued += 1
            return "token-\(issued)"
        }
    }

    /// Appends its name to `X-Order`, synchronously.
    private struct SyncOrderPlugin: PluginType {
        let name: String

        func prepare(_ request: URLRequest, target: TargetType) -> URLRequest {
            var request = request
            let previous = request.value(forHTTPHeaderField: "X-Order").map { $0 + "," } ?? ""
            request.setValue(previous + name, forHTTPHeaderField: "X-Order")
            return request
        }
    }

    /// Awaits a token, then appends its name to `X-Order`.
    private struct TokenPlugin: AsyncPluginType {
        let store: TokenStore

        func prepare(_ request: URLRequest, target: TargetType) async throws -> URLRequest {
            var request = request
            request.setValue("Bearer \(await store.next())", forHTTPHeaderField: "Authorization")
            let previous = request.value(forHTTPHeaderField: "X-Order").map { $0 + "," } ?? ""
            request.setValue(previous + "async", forHTTPHeaderField: "X-Order")
            return request
        }
    }

    private struct FailingPlugin: AsyncPluginType {
        func prepare(_ request: URLRequest, target: TargetType) async throws -> URLRequest {
            throw URLError(.userAuthenticationRequired)
        }
    }

    @Test func anAsyncPluginAwaitsAndRunsBetweenTheSynchronousOnes() async throws {
        let provider = MoyaProvider<PipelineTarget>(
            stubClosure: MoyaProvider.immediatelyStub,
            plugins: [SyncOrderPlugin(name: "first"), TokenPlugin(store: TokenStore()), SyncOrderPlugin(name: "last")]
        )
        let response = try await provider.request(.zen)
        #expect(response.request?.value(forHTTPHeaderField: "X-Order") == "first,async,last")
        #expect(response.request?.value(forHTTPHeaderField: "Authorization") == "Bearer token-1")
    }

    @Test func aThrowingAsyncPluginFailsTheRequestBeforeItIsSent() async {
        let log = EventLog()
        let provider = MoyaProvider<PipelineTarget>(
            stubClosure: MoyaProvider.immediatelyStub,
            plugins: [FailingPlugin(), RecordingPlugin(name: "p", log: log)]
        )
        do {
            _ = try await provider.request(.zen)
            Issue.record("the plugin's error must fail the request")
        } catch {
            guard case .underlying(let inner, nil) = error else {
                Issue.record("expected .underlying, got \(error)")
                return
            }
            #expect((inner as? URLError)?.code == .userAuthenticationRequired)
        }
        #expect(!log.all.contains("p.willSend"))
    }

    @Test func theCallbackAPIWorksWithAsyncPlugins() async {
        let provider = MoyaProvider<PipelineTarget>(
            stubClosure: MoyaProvider.immediatelyStub,
            plugins: [TokenPlugin(store: TokenStore())]
        )
        let result = await provider.requestAndWait(.zen, callbackQueue: DispatchQueue(label: "async-plugin-tests"))
        #expect((try? result.get().statusCode) == 200)
    }
}
