import Foundation
import Logging
import Moya
import Testing

private typealias LogOptions = NetworkLoggerPlugin.Configuration.LogOptions
private typealias LogFormatter = NetworkLoggerPlugin.Configuration.Formatter

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
        lines.update { $0.append(Line(level: event.level, message: "\(event.message)", metadata: event.metadata ?? [:])) }
    }
}

@Suite("NetworkLoggerPlugin")
struct NetworkLoggerPluginTests {
    private static let url = URL(string: "https://api.example.test/zen?x=1")!

    /// A plugin whose entries read `identifier: message` and land in the returned log.
    private func logger(
        _ options: LogOptions,
        redactedHeaders: Set<String> = NetworkLoggerPlugin.Configuration.defaultRedactedHeaders,
        requestData: @escaping LogFormatter.DataFormatterType = LogFormatter.defaultDataFormatter,
        responseData: @escaping LogFormatter.DataFormatterType = LogFormatter.defaultDataFormatter
    ) -> (NetworkLoggerPlugin, EventLog) {
        let log = EventLog()
        let formatter = LogFormatter(
            entry: { identifier, message, _ in "\(identifier): \(message)" },
            requestData: requestData,
            responseData: responseData
        )
        let configuration = NetworkLoggerPlugin.Configuration(
            formatter: formatter,
            output: { _, items in items.forEach(log.record) },
            logOptions: options,
            redactedHeaders: redactedHeaders
        )
        return (NetworkLoggerPlugin(configuration: configuration), log)
    }

    private func request(
        _ method: Moya.Method = .post,
        headers: [String: String] = [:],
        body: Data? = nil
    ) -> URLRequest {
        var request = URLRequest(url: Self.url)
        request.method = method
        request.allHTTPHeaderFields = headers
        request.httpBody = body
        return request
    }

    private func response(_ statusCode: Int, body: String, headers: [String: String] = [:]) -> Response {
        Response(
            statusCode: statusCode,
            data: Data(body.utf8),
            response: HTTPURLResponse(url: Self.url, statusCode: statusCode, httpVersion: "HTTP/1.1", headerFields: headers)
        )
    }

    private func entries(_ log: EventLog, _ identifier: String) -> [String] {
        log.all.filter { $0.hasPrefix(identifier + ": ") }
    }

    // MARK: Requests

    @Test func theRequestEntryGivesTheURL() {
        let (plugin, log) = logger([])
        plugin.willSend(StubRequest(request()), target: PipelineTarget.zen)
        #expect(log.all == ["Request: https://api.example.test/zen?x=1"])
    }

    @Test func requestMethodOptionLogsTheMethod() {
        let (plugin, log) = logger(.requestMethod)
        plugin.willSend(StubRequest(request(.patch, headers: ["X-A": "1"], body: Data("b".utf8))), target: PipelineTarget.zen)
        #expect(log.all == ["Request: https://api.example.test/zen?x=1", "HTTP Request Method: PATCH"])
    }

    @Test func requestHeadersOptionLogsRequestAndSessionHeadersSortedByName() {
        let (plugin, log) = logger(.requestHeaders)
        let sent = StubRequest(
            request(headers: ["X-B": "2", "Accept": "application/json"]),
            sessionHeaders: ["User-Agent": "Moya", "Accept": "*/*"]
        )
        plugin.willSend(sent, target: PipelineTarget.zen)
        #expect(entries(log, "Request Headers") == ["Request Headers: [Accept: application/json, User-Agent: Moya, X-B: 2]"])
        #expect(entries(log, "HTTP Request Method").isEmpty)
    }

    @Test func requestBodyOptionLogsTheBody() {
        let (plugin, log) = logger(.requestBody)
        plugin.willSend(StubRequest(request(body: Data(#"{"name":"Ada"}"#.utf8))), target: PipelineTarget.zen)
        #expect(entries(log, "Request Body") == [#"Request Body: {"name":"Ada"}"#])
    }

    @Test func theRequestBodyGoesThroughTheRequestDataFormatter() {
        let (plugin, log) = logger(.requestBody, requestData: { "<\($0.count) bytes>" })
        plugin.willSend(StubRequest(request(body: Data("12345".utf8))), target: PipelineTarget.zen)
        #expect(entries(log, "Request Body") == ["Request Body: <5 bytes>"])
    }

    @Test func aBodyThatIsNotTextIsSummarisedNotDropped() {
        let (plugin, log) = logger(.requestBody)
        plugin.willSend(StubRequest(request(body: Data([0xFF, 0xFE, 0xFD]))), target: PipelineTarget.zen)
        let bodies = entries(log, "Request Body")
        #expect(bodies.count == 1)
        #expect(bodies.first?.contains("3 bytes") == true)
    }

    @Test func withoutRequestBodyOptionNoBodyIsLogged() {
        let (plugin, log) = logger([.requestMethod, .requestHeaders])
        plugin.willSend(StubRequest(request(body: Data("secret body".utf8))), target: PipelineTarget.zen)
        #expect(!log.all.joined().contains("secret body"))
    }

    @Test func aRequestThatCouldNotBeBuiltIsStillLogged() {
        let (plugin, log) = logger(.verbose)
        plugin.willSend(StubRequest(nil), target: PipelineTarget.zen)
        #expect(log.all.count == 1)
        #expect(log.all.first?.hasPrefix("Request: ") == true)
    }

    // MARK: Responses

    @Test func theResponseEntryGivesStatusURLAndHeaders() {
        let (plugin, log) = logger([])
        plugin.didReceive(.success(response(201, body: "created", headers: ["X-Id": "7"])), target: PipelineTarget.zen)
        let responses = entries(log, "Response")
        #expect(responses.count == 1)
        #expect(responses.first?.contains("201") == true)
        #expect(responses.first?.contains("https://api.example.test/zen?x=1") == true)
        #expect(responses.first?.contains("X-Id: 7") == true)
        #expect(entries(log, "Response Body").isEmpty)
    }

    @Test func successResponseBodyOptionLogsBodiesOfSuccessesOnly() {
        let (plugin, log) = logger(.successResponseBody)
        plugin.didReceive(.success(response(200, body: "all good")), target: PipelineTarget.zen)
        plugin.didReceive(.failure(.statusCode(response(500, body: "it broke"))), target: PipelineTarget.zen)
        #expect(entries(log, "Response Body") == ["Response Body: all good"])
    }

    @Test func errorResponseBodyOptionLogsBodiesOfFailuresOnly() {
        let (plugin, log) = logger(.errorResponseBody)
        plugin.didReceive(.success(response(200, body: "all good")), target: PipelineTarget.zen)
        let failed = response(500, body: "it broke")
        plugin.didReceive(.failure(.underlying(MoyaError.statusCode(failed), failed)), target: PipelineTarget.zen)
        #expect(entries(log, "Response Body") == ["Response Body: it broke"])
    }

    @Test func theResponseBodyGoesThroughTheResponseDataFormatter() {
        let (plugin, log) = logger(.successResponseBody, responseData: { String(decoding: $0, as: UTF8.self).uppercased() })
        plugin.didReceive(.success(response(200, body: "quiet")), target: PipelineTarget.zen)
        #expect(entries(log, "Response Body") == ["Response Body: QUIET"])
    }

    @Test func anErrorWithoutResponseIsLoggedWithItsDescription() {
        let (plugin, log) = logger(.verbose)
        let error = MoyaError.underlying(NSError(domain: NSURLErrorDomain, code: NSURLErrorTimedOut, userInfo: [
            NSLocalizedDescriptionKey: "The request timed out.",
        ]), nil)
        plugin.didReceive(.failure(error), target: PipelineTarget.zen)
        #expect(log.all.count == 1)
        #expect(log.all.first?.contains("The request timed out.") == true)
    }

    @Test func aResponseWithoutHTTPResponseIsStillLogged() {
        let (plugin, log) = logger(.successResponseBody)
        plugin.didReceive(.success(Response(statusCode: 204, data: Data("stubbed".utf8))), target: PipelineTarget.zen)
        #expect(entries(log, "Response").first?.contains("204") == true)
        #expect(entries(log, "Response Body") == ["Response Body: stubbed"])
    }

    // MARK: Option sets

    @Test func defaultOptionsLogMethodAndHeadersButNoBodies() {
        let (plugin, log) = logger(.default)
        plugin.willSend(StubRequest(request(headers: ["X-A": "1"], body: Data("request body".utf8))), target: PipelineTarget.zen)
        plugin.didReceive(.success(response(200, body: "response body")), target: PipelineTarget.zen)
        #expect(entries(log, "HTTP Request Method") == ["HTTP Request Method: POST"])
        #expect(entries(log, "Request Headers") == ["Request Headers: [X-A: 1]"])
        #expect(!log.all.joined().contains("request body"))
        #expect(!log.all.joined().contains("response body"))
    }

    @Test func verboseOptionsLogEverythingButCURL() {
        let (plugin, log) = logger(.verbose)
        plugin.willSend(StubRequest(request(headers: ["X-A": "1"], body: Data("request body".utf8))), target: PipelineTarget.zen)
        plugin.didReceive(.success(response(200, body: "response body")), target: PipelineTarget.zen)
        plugin.didReceive(.failure(.statusCode(response(404, body: "error body"))), target: PipelineTarget.zen)
        #expect(entries(log, "Request") == ["Request: https://api.example.test/zen?x=1"])
        #expect(entries(log, "HTTP Request Method") == ["HTTP Request Method: POST"])
        #expect(entries(log, "Request Headers") == ["Request Headers: [X-A: 1]"])
        #expect(entries(log, "Request Body") == ["Request Body: request body"])
        #expect(entries(log, "Response Body") == ["Response Body: response body", "Response Body: error body"])
    }

    @Test func formatRequestAscURLLogsTheRequestAsACurlCommand() {
        let (plugin, log) = logger(.formatRequestAscURL)
        plugin.willSend(StubRequest(request(headers: ["X-A": "1"], body: Data("b".utf8))), target: PipelineTarget.zen)
        let requests = entries(log, "Request")
        #expect(requests.count == 1)
        #expect(requests.first?.hasPrefix("Request: $ curl ") == true)
        #expect(requests.first?.contains("'X-A: 1'") == true)
        #expect(requests.first?.contains("'https://api.example.test/zen?x=1'") == true)
    }

    @Test func formatRequestAscURLLogsOnlyTheCommandAsMoyaDoes() {
        let (plugin, log) = logger(LogOptions.verbose.union(.formatRequestAscURL))
        plugin.willSend(StubRequest(request(headers: ["X-A": "1"], body: Data("b".utf8))), target: PipelineTarget.zen)
        #expect(entries(log, "Request").count == 1)
        #expect(entries(log, "Request Headers").isEmpty)
        #expect(entries(log, "Request Body").isEmpty)
        #expect(entries(log, "HTTP Request Method").isEmpty)
    }

    @Test func theSeedFormVerboseTrueLogsBodies() {
        #expect(NetworkLoggerPlugin(verbose: true).configuration.logOptions == .verbose)
        #expect(NetworkLoggerPlugin(verbose: false).configuration.logOptions == .default)
        #expect(NetworkLoggerPlugin(verbose: true, cURL: true).configuration.logOptions == LogOptions.verbose.union(.formatRequestAscURL))
        #expect(NetworkLoggerPlugin(verbose: true).configuration.redactedHeaders.contains("authorization"))
    }

    @Test func aPluginMadeWithNoArgumentsLogsTheDefaultOptions() {
        let plugin = NetworkLoggerPlugin()
        #expect(plugin.configuration.logOptions == .default)
        #expect(plugin.configuration.redactedHeaders == ["authorization", "proxy-authorization", "cookie", "set-cookie"])
    }

    // MARK: Formatter and output

    @Test func theDefaultEntryFormatterStampsEachEntry() {
        let line = LogFormatter.defaultEntryFormatter(identifier: "Request", message: "https://x.test", target: PipelineTarget.zen)
        #expect(line.hasPrefix("Moya_Logger: ["))
        #expect(line.hasSuffix("] Request: https://x.test"))
    }

    @Test func aCustomEntryFormatterSeesIdentifierMessageAndTarget() {
        let log = EventLog()
        let configuration = NetworkLoggerPlugin.Configuration(
            formatter: LogFormatter(entry: { identifier, message, target in "\(target)|\(identifier)|\(message)" }),
            output: { _, items in items.forEach(log.record) },
            logOptions: []
        )
        NetworkLoggerPlugin(configuration: configuration).willSend(StubRequest(request()), target: PipelineTarget.user("ada"))
        #expect(log.all == ["user(\"ada\")|Request|https://api.example.test/zen?x=1"])
    }

    @Test func theOutputReceivesTheTargetAndAllEntriesOfOneEventTogether() {
        let calls = Synchronized<[(String, [String])]>([])
        let configuration = NetworkLoggerPlugin.Configuration(
            formatter: LogFormatter(entry: { identifier, _, _ in identifier }),
            output: { target, items in calls.update { $0.append(("\(target)", items)) } },
            logOptions: [.requestMethod, .requestHeaders]
        )
        NetworkLoggerPlugin(configuration: configuration).willSend(StubRequest(request()), target: PipelineTarget.user("ada"))
        let recorded = calls.update { $0 }
        #expect(recorded.count == 1)
        #expect(recorded.first?.0 == "user(\"ada\")")
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
        NetworkLoggerPlugin(configuration: configuration).willSend(StubRequest(request(.put)), target: PipelineTarget.zen)
        let logged = lines.update { $0 }
        #expect(logged.map(\.message) == ["Request: https://api.example.test/zen?x=1", "HTTP Request Method: PUT"])
        #expect(logged.allSatisfy { $0.level == .debug })
        #expect(logged.first?.metadata["moya.target"] == "zen")
    }

    // MARK: Redaction

    @Test func credentialHeadersAreRedactedByDefault() {
        let (plugin, log) = logger([.requestHeaders])
        let headers = [
            "Authorization": "Bearer s3cr3t-token",
            "proxy-authorization": "Basic cHJveHk=",
            "Cookie": "session=abc123",
            "X-Visible": "shown",
        ]
        plugin.willSend(StubRequest(request(headers: headers)), target: PipelineTarget.zen)
        let everything = log.all.joined(separator: "\n")
        for secret in ["s3cr3t-token", "cHJveHk=", "abc123"] {
            #expect(!everything.contains(secret))
        }
        #expect(everything.contains("X-Visible: shown"))
        #expect(entries(log, "Request Headers").first?.contains("Authorization: <redacted>") == true)
    }

    @Test func setCookieInResponsesIsRedactedByDefault() {
        let (plugin, log) = logger([])
        plugin.didReceive(.success(response(200, body: "", headers: ["Set-Cookie": "session=abc123", "X-Id": "7"])), target: PipelineTarget.zen)
        let everything = log.all.joined()
        #expect(!everything.contains("abc123"))
        #expect(everything.contains("X-Id: 7"))
    }

    @Test func sessionHeadersAreRedactedToo() {
        let (plugin, log) = logger([.requestHeaders, .formatRequestAscURL])
        plugin.willSend(StubRequest(request(), sessionHeaders: ["Authorization": "Basic c2Vzc2lvbg=="]), target: PipelineTarget.zen)
        #expect(!log.all.joined().contains("c2Vzc2lvbg=="))
    }

    @Test func redactedHeadersCanBeChosen() {
        let (plugin, log) = logger([.requestHeaders, .formatRequestAscURL], redactedHeaders: ["X-Api-Key"])
        plugin.willSend(
            StubRequest(request(headers: ["x-api-key": "k3y", "Authorization": "Bearer visible-token"])),
            target: PipelineTarget.zen
        )
        let everything = log.all.joined(separator: "\n")
        #expect(!everything.contains("k3y"))
        #expect(everything.contains("Bearer visible-token"))
    }

    @Test func anEmptyRedactionSetLogsEveryValue() {
        let (plugin, log) = logger(.requestHeaders, redactedHeaders: [])
        plugin.willSend(StubRequest(request(headers: ["Authorization": "Bearer visible-token"])), target: PipelineTarget.zen)
        #expect(entries(log, "Request Headers") == ["Request Headers: [Authorization: Bearer visible-token]"])
    }

    // MARK: Through a provider

    @Test func aStubbedRequestIsLoggedOnItsWayOutAndBack() async throws {
        let (plugin, log) = logger([.requestMethod, .successResponseBody])
        let provider = MoyaProvider<PipelineTarget>(stubClosure: MoyaProvider.immediatelyStub, plugins: [plugin])
        _ = try await provider.requestAndWait(.zen, callbackQueue: DispatchQueue(label: "logger-tests")).get()
        #expect(entries(log, "Request") == ["Request: https://api.example.test/zen"])
        #expect(entries(log, "HTTP Request Method") == ["HTTP Request Method: GET"])
        #expect(entries(log, "Response Body") == ["Response Body: Half measures are as bad as nothing at all."])
    }

    @Test func aStubbedResponseThatFailsValidationLogsTheErrorBody() async {
        let (plugin, log) = logger([.errorResponseBody])
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
        let result = await provider.requestAndWait(.validated(statusCode: 500), callbackQueue: DispatchQueue(label: "logger-tests"))
        guard case .failure = result else {
            Issue.record("expected the validation to fail, got \(result)")
            return
        }
        #expect(entries(log, "Response Body") == ["Response Body: server on fire"])
    }
}
