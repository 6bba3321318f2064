import Foundation
import Logging
import Moya
import Testing

/// A swift-log handler that keeps what it is given.
private struct CapturingLogHandler: LogHandler {
    struct Line: Sendable {
        var level: Logger.Level
        var message: String
        var metadata: Logger.Metadata
    }

    let lines: Synchronized<[Line]>
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        lines.update {
            $0.append(Line(level: event.level, message: "\(event.message)", metadata: event.metadata ?? [:]))
        }
    }
}

@Suite("NetworkLoggerPlugin's configuration, formats and outputs")
struct NetworkLoggerConfigurationTests {
    private typealias F = LoggerFixture

    // MARK: Configuration

    @Test func logOptionsCanBeChangedOnThePluginAsInMoya() {
        let (plugin, log) = F.logger(.default)
        plugin.configuration.logOptions = .verbose
        plugin.willSend(StubRequest(F.request(body: Data("request body".utf8))), target: PipelineTarget.zen)
        plugin.didReceive(.success(F.response(200, body: "response body")), target: PipelineTarget.zen)
        #expect(F.entries(log, "Request Body") == ["Request Body: request body"])
        #expect(F.entries(log, "Response Body") == ["Response Body: response body"])
    }

    @Test func theFormatterAndOutputCanBeChangedOnThePlugin() {
        let log = EventLog()
        let plugin = NetworkLoggerPlugin()
        plugin.configuration.output = { _, items in items.forEach(log.record) }
        plugin.configuration.formatter.entry = { identifier, _, _ in identifier.uppercased() }
        plugin.configuration.formatter.requestData = { _ in "body" }
        plugin.configuration.formatter.responseData = { _ in "body" }
        plugin.configuration.redactedHeaders = ["X-Key"]
        plugin.willSend(StubRequest(F.request()), target: PipelineTarget.zen)
        #expect(log.all == ["REQUEST", "REQUEST HEADERS", "HTTP REQUEST METHOD"])
        #expect(plugin.configuration.redactedHeaders == ["x-key"])
    }

    @Test func defaultOptionsLogMethodAndHeadersButNoBodies() {
        let (plugin, log) = F.logger(.default)
        plugin.willSend(
            StubRequest(F.request(headers: ["X-A": "1"], body: Data("request body".utf8))),
            target: PipelineTarget.zen
        )
        plugin.didReceive(.success(F.response(200, body: "response body")), target: PipelineTarget.zen)
        #expect(F.entries(log, "HTTP Request Method") == ["HTTP Request Method: POST"])
        #expect(F.entries(log, "Request Headers") == [#"Request Headers: ["X-A": "1"]"#])
        #expect(!log.all.joined().contains("body"))
    }

    @Test func theConvenienceFormsChooseTheirOptions() {
        #expect(NetworkLoggerPlugin(verbose: true).configuration.logOptions == .verbose)
        #expect(NetworkLoggerPlugin(verbose: false).configuration.logOptions == .default)
        #expect(
            NetworkLoggerPlugin(verbose: true, cURL: true).configuration.logOptions
                == LogOptions.verbose.union(.formatRequestAscURL)
        )
        #expect(NetworkLoggerPlugin.default.configuration.logOptions == .default)
        #expect(NetworkLoggerPlugin.verbose.configuration.logOptions == .verbose)
        #expect(
            NetworkLoggerPlugin().configuration.redactedHeaders == [
                "authorization", "proxy-authorization", "cookie", "set-cookie",
            ]
        )
    }

    @Test func theDefaultEntryFormatterWritesMoyaLoggerWithAShortDate() throws {
        let before = Date()
        let line = LogFormatter.defaultEntryFormatter(
            identifier: "Request",
            message: "https://x.test",
            target: PipelineTarget.zen
        )
        let after = Date()
        let formatter = DateFormatter()
        formatter.dateStyle = .short
        formatter.timeStyle = .short
        let expected = Set(
            [before, after].map { "Moya_Logger: [\(formatter.string(from: $0))] Request: https://x.test" }
        )
        #expect(expected.contains(line), "\(line)")
    }

    @Test func theOutputReceivesTheTargetAndAllEntriesOfOneEventTogether() {
        let calls = Synchronized<[(String, [String])]>([])
        let configuration = NetworkLoggerPlugin.Configuration(
            formatter: LogFormatter(entry: { identifier, _, _ in identifier }),
            output: { target, items in calls.update { $0.append(("\(target)", items)) } },
            logOptions: [.requestMethod, .requestHeaders]
        )
        NetworkLoggerPlugin(configuration: configuration).willSend(
            StubRequest(F.request()),
            target: PipelineTarget.user("ada")
        )
        let recorded = calls.update { $0 }
        #expect(recorded.map(\.0) == ["user(\"ada\")"])
        #expect(recorded.first?.1 == ["Request", "Request Headers", "HTTP Request Method"])
    }

    @Test func theLoggerOutputWritesToASwiftLogLogger() {
        let lines = Synchronized<[CapturingLogHandler.Line]>([])
        let swiftLogger = Logger(label: "moya-tests") { _ in CapturingLogHandler(lines: lines) }
        let configuration = NetworkLoggerPlugin.Configuration(
            formatter: LogFormatter(entry: { identifier, message, _ in "\(identifier): \(message)" }),
            output: NetworkLoggerPlugin.Configuration.logger(swiftLogger, level: .debug),
            logOptions: .requestMethod
        )
        NetworkLoggerPlugin(configuration: configuration).willSend(
            StubRequest(F.request(.put)),
            target: PipelineTarget.zen
        )
        let logged = lines.update { $0 }
        #expect(logged.map(\.message) == ["Request: https://api.example.test/zen?x=1", "HTTP Request Method: PUT"])
        #expect(logged.allSatisfy { $0.level == .debug })
        #expect(logged.first?.metadata["moya.target"] == "zen")
    }

    // MARK: Through a provider

    @Test func aStubbedRequestIsLoggedOnItsWayOutAndBack() async throws {
        let (plugin, log) = F.logger([.requestMethod, .successResponseBody])
        let provider = MoyaProvider<PipelineTarget>(stubClosure: MoyaProvider.immediatelyStub, plugins: [plugin])
        _ = try await provider.requestAndWait(.zen, callbackQueue: DispatchQueue(label: "logger-tests")).get()
        #expect(F.entries(log, "Request") == ["Request: https://api.example.test/zen"])
        #expect(F.entries(log, "HTTP Request Method") == ["HTTP Request Method: GET"])
        #expect(F.entries(log, "Response Body") == ["Response Body: Half measures are as bad as nothing at all."])
    }

    @Test func aStubbedResponseThatFailsValidationLogsTheErrorBody() async {
        let (plugin, log) = F.logger([.errorResponseBody])
        let provider = MoyaProvider<PipelineTarget>(
            endpointClosure: { target in
                Endpoint(
                    url: URL(target: target).absoluteString,
                    sampleResponseClosure: { .networkResponse(500, Data("server on fire".utf8)) },
                    method: target.method,
                    task: target.task,
                    httpHeaderFields: target.headers
                )
            },
            stubClosure: MoyaProvider.immediatelyStub,
            plugins: [plugin]
        )
        let result = await provider.requestAndWait(
            .validated(statusCode: 500),
            callbackQueue: DispatchQueue(label: "logger-tests")
        )
        guard case .failure = result else {
            Issue.record("expected the validation to fail, got \(result)")
            return
        }
        #expect(F.entries(log, "Response Body") == ["Response Body: server on fire"])
    }
}
