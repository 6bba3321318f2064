import Foundation
import Testing

@testable import Moya

/// A plugin that asks the request it is about to send for its cURL description.
private struct CURLCapturingPlugin: PluginType {
    let log: EventLog

    func willSend(_ request: RequestType, target: TargetType) {
        _ = request.cURLDescription { log.record($0) }
    }
}

/// The cURL rendering follows Alamofire 5's `Request.cURLDescription()` to the character.
@Suite("cURL description of requests, as Alamofire renders it")
struct CURLDescriptionTests {
    private static let url = URL(string: "https://api.example.test/search?q=a%20b&page=1")!
    /// What joins the components: a space, a backslash, a line break and a tab.
    private static let separator = " \\\n\t"

    /// `LoggerFixture`'s request builder, with this suite's URL and `GET` by default.
    private func request(
        _ method: Moya.Method = .get,
        url: URL = url,
        headers: [String: String] = [:],
        body: Data? = nil
    ) -> URLRequest {
        LoggerFixture.request(method, url: url, headers: headers, body: body)
    }

    /// What the provider's `RequestType` gives for `request`.
    private func description(of request: URLRequest, sessionHeaders: [String: String] = [:]) -> String {
        var rendered: [String] = []
        _ = MoyaRequest(request: request, sessionHeaders: sessionHeaders).cURLDescription { rendered.append($0) }
        return rendered.joined()
    }

    /// The arguments a shell passes to `curl` when `command` is pasted into it.
    private func shellArguments(of command: String) throws -> [String] {
        try #require(command.hasPrefix("$ curl "))
        let script =
            #"curl() { for argument in "$@"; do printf '%s\0' "$argument"; done; }"# + "\n" + command.dropFirst(2)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
        var arguments = data.split(separator: 0, omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
        if arguments.last?.isEmpty == true { arguments.removeLast() }
        return arguments
    }

    @Test func aGetIsGivenItsMethodTooAndTheURLLast() {
        #expect(
            description(of: request())
                == ["$ curl -v", "-X GET", "\"\(Self.url.absoluteString)\""].joined(separator: Self.separator)
        )
    }

    @Test func headersAndBodyAreDoubleQuotedBetweenMethodAndURL() {
        let rendered = description(
            of: request(
                .post,
                headers: ["X-Note": #"say "hi""#, "Content-Type": "application/json"],
                body: Data(#"{"name":"O'Brien"}"#.utf8)
            )
        )
        #expect(
            rendered
                == [
                    "$ curl -v",
                    "-X POST",
                    #"-H "Content-Type: application/json""#,
                    #"-H "X-Note: say \"hi\"""#,
                    #"-d "{\"name\":\"O'Brien\"}""#,
                    #""https://api.example.test/search?q=a%20b&page=1""#,
                ].joined(separator: Self.separator)
        )
    }

    @Test func anEscapedQuoteInTheBodyGainsABackslashAsInAlamofire() {
        let rendered = description(of: request(.put, body: Data(#"{"text":"a \"quoted\" word"}"#.utf8)))
        #expect(rendered.contains(#"-d "{\"text\":\"a \\\"quoted\\\" word\"}""#))
    }

    @Test func aShellGetsBackTheHeadersAndBodyOfAnOrdinaryJSONRequest() throws {
        let body = #"{"text":"a \"quoted\" word","name":"O'Brien"}"#
        let rendered = description(of: request(.post, headers: ["X-Note": #"say "hi""#], body: Data(body.utf8)))
        #expect(
            try shellArguments(of: rendered) == [
                "-v", "-X", "POST", "-H", #"X-Note: say "hi""#, "-d", body, Self.url.absoluteString,
            ]
        )
    }

    @Test func anEmptyBodyIsStillGivenAsDashD() {
        #expect(description(of: request(.post, body: Data())).contains("-d \"\"\(Self.separator)"))
    }

    @Test func sessionHeadersAreIncludedAndTheRequestsOwnWin() {
        let rendered = description(
            of: request(headers: ["accept": "application/json"]),
            sessionHeaders: ["Accept": "*/*", "User-Agent": "Moya/15"]
        )
        #expect(
            rendered
                == [
                    "$ curl -v", "-X GET", #"-H "accept: application/json""#, #"-H "User-Agent: Moya/15""#,
                    "\"\(Self.url.absoluteString)\"",
                ].joined(separator: Self.separator)
        )
    }

    @Test func theCookieHeaderIsLeftOutAsAlamofireLeavesItToTheCookieStore() {
        let rendered = description(
            of: request(headers: ["Cookie": "session=1", "X-A": "1"]),
            sessionHeaders: ["Cookie": "other=2"]
        )
        #expect(!rendered.contains("session=1"))
        #expect(!rendered.contains("other=2"))
        #expect(rendered.contains(#"-H "X-A: 1""#))
    }

    @Test func theProvidersDescriptionKeepsSecretsBecauseItIsMeantToReplayTheRequest() {
        let url = URL(string: "https://ada:s3cret@api.example.test/zen")!
        let rendered = description(of: request(url: url, headers: ["Authorization": "Bearer t0ken"]))
        #expect(rendered.contains(#"-H "Authorization: Bearer t0ken""#))
        #expect(rendered.hasSuffix(#""https://ada:s3cret@api.example.test/zen""#))
    }

    @Test func aRequestWithoutHostCannotBeDescribed() {
        #expect(description(of: request(url: URL(string: "/relative/path")!)) == "$ curl command could not be created")
    }

    @Test func theLoggerWritesTheSameCommandForTheProvidersRequest() {
        let (plugin, log) = LoggerFixture.logger(.formatRequestAscURL, redactedHeaders: [])
        let sent = request(.post, headers: ["X-A": "1"], body: Data("b".utf8))
        plugin.willSend(
            MoyaRequest(request: sent, sessionHeaders: ["User-Agent": "Moya/15"]),
            target: PipelineTarget.zen
        )
        #expect(log.all == ["Request: " + description(of: sent, sessionHeaders: ["User-Agent": "Moya/15"])])
    }

    @Test func theRequestTypeGivenToPluginsDescribesTheRequestItSends() async throws {
        let log = EventLog()
        let provider = MoyaProvider<DynamicTarget>(
            stubClosure: MoyaProvider.immediatelyStub,
            plugins: [CURLCapturingPlugin(log: log)]
        )
        let target = DynamicTarget(
            baseURL: URL(string: "https://api.example.test")!,
            path: "/notes",
            method: .post,
            makeTask: { .requestParameters(parameters: ["title": "Don't panic"], encoding: JSONEncoding.default) },
            headers: ["X-Client": "tests"]
        )
        _ = try await provider.requestAndWait(target, callbackQueue: DispatchQueue(label: "curl-tests")).get()
        let rendered = try #require(log.all.first)
        let arguments = try shellArguments(of: rendered)
        #expect(Array(arguments.prefix(3)) == ["-v", "-X", "POST"])
        #expect(arguments.last == "https://api.example.test/notes")
        #expect(arguments.contains("Content-Type: application/json"))
        #expect(arguments.contains("X-Client: tests"))
        let body = try #require(arguments.firstIndex(of: "-d").map { arguments[$0 + 1] })
        #expect(body == #"{"title":"Don't panic"}"#)
    }
}
