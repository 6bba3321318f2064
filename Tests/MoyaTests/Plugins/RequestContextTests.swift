import Foundation
import Logging
import Moya
import Testing

@Suite("Request context: one identifier per request, in every hook")
struct RequestContextTests {
    /// Records the request identifier each hook sees.
    private struct ContextRecordingPlugin: PluginType {
        let seen: Synchronized<[String]>

        private func record(_ hook: String) {
            let id = RequestContext.current?.requestID ?? "none"
            seen.update { $0.append("\(hook):\(id)") }
        }

        func prepare(_ request: URLRequest, target: TargetType) -> URLRequest {
            record("prepare")
            return request
        }

        func willSend(_ request: RequestType, target: TargetType) { record("willSend") }
        func didReceive(_ result: Result<Moya.Response, MoyaError>, target: TargetType) { record("didReceive") }

        func process(_ result: Result<Moya.Response, MoyaError>, target: TargetType) -> Result<Moya.Response, MoyaError>
        {
            record("process")
            return result
        }
    }

    @Test func everyHookOfOneRequestSeesTheSameIdentifier() async throws {
        let seen = Synchronized<[String]>([])
        let provider = MoyaProvider<PipelineTarget>(
            stubClosure: MoyaProvider.immediatelyStub,
            plugins: [ContextRecordingPlugin(seen: seen)]
        )
        _ = try await provider.request(.zen)
        let entries = seen.update { $0 }
        #expect(entries.map { $0.split(separator: ":")[0] } == ["prepare", "willSend", "didReceive", "process"])
        let ids = Set(entries.map { $0.split(separator: ":")[1] })
        #expect(ids.count == 1)
        #expect(!ids.contains("none"))
    }

    @Test func twoRequestsHaveDifferentIdentifiers() async throws {
        let seen = Synchronized<[String]>([])
        let provider = MoyaProvider<PipelineTarget>(
            stubClosure: MoyaProvider.immediatelyStub,
            plugins: [ContextRecordingPlugin(seen: seen)]
        )
        _ = try await provider.request(.zen)
        _ = try await provider.request(.zen)
        let ids = Set(seen.update { $0 }.map { $0.split(separator: ":")[1] })
        #expect(ids.count == 2)
    }

    @Test func newContextsNeverRepeatAnIdentifierFromAnyThread() async {
        let ids = await withTaskGroup(of: [String].self) { group in
            for _ in 0..<4 {
                group.addTask { (0..<5_000).map { _ in RequestContext().requestID } }
            }
            return await group.reduce(into: [String]()) { $0 += $1 }
        }
        #expect(ids.count == 20_000)
        #expect(Set(ids).count == ids.count)
    }

    @Test func aContextEqualsOneMadeFromItsIdentifierAndHashesAlike() {
        let made = RequestContext()
        let spelled = RequestContext(requestID: made.requestID)
        #expect(made == spelled)
        #expect(made.hashValue == spelled.hashValue)
        #expect(made != RequestContext())
        #expect(Set([made, spelled, RequestContext(requestID: "other")]).count == 2)
    }

    @Test func outsideAProvidersHooksThereIsNoContext() {
        #expect(RequestContext.current == nil)
    }

    @Test func theLoggerPutsOneRequestIdentifierOnEveryLineOfARequest() async throws {
        let records = Synchronized<[Logger.Metadata]>([])
        let logger = Logger(label: "moya-tests") { _ in MetadataRecordingLogHandler(records: records) }
        let plugin = NetworkLoggerPlugin(
            configuration: .init(output: NetworkLoggerPlugin.Configuration.logger(logger), logOptions: .verbose)
        )
        let provider = MoyaProvider<PipelineTarget>(stubClosure: MoyaProvider.immediatelyStub, plugins: [plugin])

        _ = try await provider.request(.zen)
        let first = records.update { $0 }
        #expect(first.count >= 2)
        let firstIDs = Set(first.compactMap { $0["moya.request-id"]?.description })
        #expect(firstIDs.count == 1)
        #expect(first.allSatisfy { $0["moya.request-id"] != nil })

        _ = try await provider.request(.zen)
        let secondIDs = Set(
            records.update { $0 }.dropFirst(first.count).compactMap { $0["moya.request-id"]?.description }
        )
        #expect(secondIDs.count == 1)
        #expect(secondIDs != firstIDs)
    }
}
