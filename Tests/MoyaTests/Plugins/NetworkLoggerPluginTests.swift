import Foundation
import Logging
import Moya
import Testing

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
}
