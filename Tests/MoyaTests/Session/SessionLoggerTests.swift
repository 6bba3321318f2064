import Foundation
import Hummingbird
import Logging
import LoopbackServer
import Moya
import Testing

/// `Session.Configuration.logger`: AsyncHTTPClient's own logs, tied to Moya's request id.
@Suite("AsyncHTTPClient's logs through the session's logger", .timeLimit(.minutes(2)))
struct SessionLoggerTests {
    /// Records the request id the hooks see.
    private struct RequestIDPlugin: PluginType {
        let seen: Synchronized<[String]>

        func willSend(_ request: RequestType, target: TargetType) {
            if let id = RequestContext.current?.requestID {
                seen.update { $0.append(id) }
            }
        }
    }

    @Test func asyncHTTPClientsLogsCarryTheRequestIDAPluginSaw() async throws {
        try await TestServer.with({ router in
            router.get("hello") { _, _ -> String in "hello" }
        }) { server in
            let records = Synchronized<[Logger.Metadata]>([])
            var logger = Logger(label: "moya-tests.ahc") { _ in MetadataRecordingLogHandler(records: records) }
            logger.logLevel = .trace
            var configuration = Session.Configuration()
            configuration.logger = logger
            let seen = Synchronized<[String]>([])
            let provider = MoyaProvider<DynamicTarget>(
                session: Session(configuration: configuration),
                plugins: [RequestIDPlugin(seen: seen)]
            )

            let response = try await provider.request(DynamicTarget(baseURL: server.baseURL, path: "/hello"))
            #expect(response.statusCode == 200)

            let ids = seen.update { $0 }
            #expect(ids.count == 1)
            let id = try #require(ids.first)
            let ahcRecords = records.update { $0 }.filter { $0["ahc-request-id"] != nil }
            #expect(!ahcRecords.isEmpty, "AsyncHTTPClient logged nothing through the session's logger")
            #expect(ahcRecords.contains { $0["moya.request-id"]?.description == id })
        }
    }
}
