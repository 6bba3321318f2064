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

@Suite("NetworkLoggerPlugin writes Moya 15's entries")
struct NetworkLoggerPluginTests {
    private typealias F = LoggerFixture

    // MARK: Requests

    @Test func theRequestEntryIsTheRequestsDescriptionWhichIsItsURL() {
        let (plugin, log) = F.logger([])
        let request = F.request()
        plugin.willSend(StubRequest(request), target: PipelineTarget.zen)
        #expect(log.all == ["Request: \(request.description)"])
        #expect(log.all == ["Request: https://api.example.test/zen?x=1"])
    }

    @Test func aMissingRequestIsLoggedAsInvalidRequest() {
        let (plugin, log) = F.logger(.verbose)
        plugin.willSend(StubRequest(nil), target: PipelineTarget.zen)
        #expect(log.all == ["Request: (invalid request)"])
    }

    @Test func requestHeadersArePrintedAsASwiftDictionaryWithTheRequestsOverTheSessions() {
        let (plugin, log) = F.logger(.requestHeaders)
        let sent = StubRequest(
            F.request(headers: ["X-B": "2", "accept": "application/json"]),
            sessionHeaders: ["User-Agent": "Moya", "Accept": "*/*"]
        )
        plugin.willSend(sent, target: PipelineTarget.zen)
        #expect(
            F.entries(log, "Request Headers") == [
                #"Request Headers: ["accept": "application/json", "User-Agent": "Moya", "X-B": "2"]"#
            ]
        )
    }

    @Test func requestHeadersMatchWhatADictionaryDescriptionPrints() {
        let (plugin, log) = F.logger(.requestHeaders)
        let headers = ["X-Quote": #"say "hi""#]
        plugin.willSend(StubRequest(F.request(headers: headers)), target: PipelineTarget.zen)
        #expect(F.entries(log, "Request Headers") == ["Request Headers: \(headers.description)"])
        let (emptyPlugin, emptyLog) = F.logger(.requestHeaders)
        emptyPlugin.willSend(StubRequest(F.request()), target: PipelineTarget.zen)
        #expect(F.entries(emptyLog, "Request Headers") == ["Request Headers: [:]"])
    }

    @Test func requestEntriesComeInMoyasOrder() {
        let (plugin, log) = F.logger([.requestMethod, .requestBody, .requestHeaders])
        plugin.willSend(
            StubRequest(F.request(.patch, headers: ["X-A": "1"], body: Data("b".utf8))),
            target: PipelineTarget.zen
        )
        #expect(
            log.all == [
                "Request: https://api.example.test/zen?x=1",
                #"Request Headers: ["X-A": "1"]"#,
                "Request Body: b",
                "HTTP Request Method: PATCH",
            ]
        )
    }

    @Test func aBodyStreamIsLoggedByItsDescription() {
        let (plugin, log) = F.logger(.requestBody)
        var request = F.request()
        let stream = InputStream(data: Data("streamed".utf8))
        request.httpBodyStream = stream
        plugin.willSend(StubRequest(request), target: PipelineTarget.zen)
        #expect(F.entries(log, "Request Body Stream") == ["Request Body Stream: \(stream.description)"])
    }

    @Test func theRequestBodyGoesThroughTheRequestDataFormatter() {
        let (plugin, log) = F.logger(.requestBody, requestData: { "<\($0.count) bytes>" })
        plugin.willSend(StubRequest(F.request(body: Data("12345".utf8))), target: PipelineTarget.zen)
        #expect(F.entries(log, "Request Body") == ["Request Body: <5 bytes>"])
    }

    @Test func aBodyThatIsNotTextIsSummarisedWithItsSize() {
        let (plugin, log) = F.logger(.requestBody)
        plugin.willSend(StubRequest(F.request(body: Data([0xFF, 0xFE, 0xFD]))), target: PipelineTarget.zen)
        #expect(F.entries(log, "Request Body") == ["Request Body: ## Cannot map data to String (3 bytes) ##"])
    }

    @Test func withoutRequestBodyOptionNoBodyIsLogged() {
        let (plugin, log) = F.logger([.requestMethod, .requestHeaders])
        plugin.willSend(StubRequest(F.request(body: Data("secret body".utf8))), target: PipelineTarget.zen)
        #expect(!log.all.joined().contains("secret body"))
    }

    @Test func formatRequestAscURLLogsOnlyWhatTheRequestsCURLDescriptionGives() {
        let (plugin, log) = F.logger(LogOptions.verbose.union(.formatRequestAscURL))
        plugin.willSend(StubRequest(F.request(headers: ["X-A": "1"], body: Data("b".utf8))), target: PipelineTarget.zen)
        #expect(log.all == ["Request: $ curl (stub)"])
    }

    // MARK: Responses

    @Test func theResponseEntryIsTheHTTPURLResponsesOwnDescription() {
        let (plugin, log) = F.logger([])
        let response = F.response(201, body: "created", headers: ["X-Id": "7"])
        plugin.didReceive(.success(response), target: PipelineTarget.zen)
        let logged = F.entries(log, "Response")
        #expect(logged.map(F.withoutAddresses) == [F.withoutAddresses("Response: \(response.response!.description)")])
        #expect(logged.first?.contains("https://api.example.test/zen?x=1") == true)
        #expect(logged.first?.contains("201") == true)
    }

    @Test func aResponseWithoutHTTPResponseSaysItWasEmpty() {
        let (plugin, log) = F.logger(.successResponseBody)
        plugin.didReceive(.success(Response(statusCode: 204, data: Data("stubbed".utf8))), target: PipelineTarget.zen)
        #expect(log.all == ["Response: Received empty network response for zen.", "Response Body: stubbed"])
    }

    @Test func successResponseBodyOptionLogsBodiesOfSuccessesOnly() {
        let (plugin, log) = F.logger(.successResponseBody)
        plugin.didReceive(.success(F.response(200, body: "all good")), target: PipelineTarget.zen)
        plugin.didReceive(.failure(.statusCode(F.response(500, body: "it broke"))), target: PipelineTarget.zen)
        #expect(F.entries(log, "Response Body") == ["Response Body: all good"])
    }

    @Test func errorResponseBodyOptionLogsBodiesOfErrorsWithAResponseOnly() {
        let (plugin, log) = F.logger(.errorResponseBody)
        plugin.didReceive(.success(F.response(200, body: "all good")), target: PipelineTarget.zen)
        let failed = F.response(500, body: "it broke")
        plugin.didReceive(.failure(.underlying(MoyaError.statusCode(failed), failed)), target: PipelineTarget.zen)
        #expect(F.entries(log, "Response Body") == ["Response Body: it broke"])
    }

    @Test func theResponseBodyGoesThroughTheResponseDataFormatter() {
        let (plugin, log) = F.logger(
            .successResponseBody,
            responseData: { String(decoding: $0, as: UTF8.self).uppercased() }
        )
        plugin.didReceive(.success(F.response(200, body: "quiet")), target: PipelineTarget.zen)
        #expect(F.entries(log, "Response Body") == ["Response Body: QUIET"])
    }

    @Test func anErrorWithoutResponseIsLoggedAsErrorCallingTarget() {
        let (plugin, log) = F.logger(.verbose)
        let error = MoyaError.underlying(
            NSError(
                domain: NSURLErrorDomain,
                code: NSURLErrorTimedOut,
                userInfo: [
                    NSLocalizedDescriptionKey: "The request timed out."
                ]
            ),
            nil
        )
        plugin.didReceive(.failure(error), target: PipelineTarget.zen)
        #expect(log.all == ["Error: Error calling zen : \(error)"])
    }

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
