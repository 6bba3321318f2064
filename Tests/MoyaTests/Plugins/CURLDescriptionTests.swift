import Foundation
import Moya
import Testing

/// A plugin that asks the request it is about to send for its cURL description.
private struct CURLCapturingPlugin: PluginType {
    let log: EventLog

    func willSend(_ request: RequestType, target: TargetType) {
        _ = request.cURLDescription { log.record($0) }
    }
}

/// The cURL rendering is checked by running it through a real shell, with `curl` replaced by a
/// function that prints the arguments it receives: what the shell hands to curl is what counts.
@Suite("cURL description of requests")
struct CURLDescriptionTests {
    private static let url = URL(string: "https://api.example.test/search?q=a%20b&page=1")!

    private func request(_ method: Moya.Method = .get, headers: [String: String] = [:], body: Data? = nil) -> URLRequest {
        var request = URLRequest(url: Self.url)
        request.method = method
        request.allHTTPHeaderFields = headers
        request.httpBody = body
        return request
    }

    /// The cURL command the logger renders, with nothing redacted.
    private func command(for request: URLRequest, sessionHeaders: [String: String] = [:]) throws -> String {
        let log = EventLog()
        let plugin = NetworkLoggerPlugin(configuration: .init(
            formatter: .init(entry: { _, message, _ in message }),
            output: { _, items in items.forEach(log.record) },
            logOptions: .formatRequestAscURL,
            redactedHeaders: []
        ))
        plugin.willSend(StubRequest(request, sessionHeaders: sessionHeaders), target: PipelineTarget.zen)
        return try #require(log.all.first)
    }

    /// The arguments a shell passes to `curl` when `command` is pasted into it.
    private func shellArguments(of command: String, shell: String = "/bin/sh") throws -> [Data] {
        try #require(command.hasPrefix("$ curl "))
        let script = #"curl() { for argument in "$@"; do printf '%s\0' "$argument"; done; }"# + "\n" + command.dropFirst(2)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: shell)
        process.arguments = ["-c", script]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
        var arguments = data.split(separator: 0, omittingEmptySubsequences: false).map { Data($0) }
        if arguments.last?.isEmpty == true { arguments.removeLast() }
        return arguments
    }

    private func textArguments(of command: String) throws -> [String] {
        try shellArguments(of: command).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func aGetRendersAsVerboseCurlOfTheURL() throws {
        let arguments = try textArguments(of: try command(for: request()))
        #expect(arguments == ["-v", Self.url.absoluteString])
    }

    @Test func otherMethodsAreGivenWithDashX() throws {
        let arguments = try textArguments(of: try command(for: request(.delete)))
        #expect(arguments == ["-v", "-X", "DELETE", Self.url.absoluteString])
    }

    @Test func headersAndBodyArriveIntactAndInOrder() throws {
        let rendered = try command(for: request(
            .post,
            headers: ["X-Note": "it's fine", "Content-Type": "application/json"],
            body: Data(#"{"name":"O'Brien"}"#.utf8)
        ))
        #expect(try textArguments(of: rendered) == [
            "-v", "-X", "POST",
            "-H", "Content-Type: application/json",
            "-H", "X-Note: it's fine",
            "--data-binary", #"{"name":"O'Brien"}"#,
            Self.url.absoluteString,
        ])
    }

    @Test func shellSyntaxInTheBodyIsNotInterpreted() throws {
        let body = "line one\nline 'two' \"three\" $HOME `id` $(id) \\n ; & | > /tmp/x *"
        let arguments = try textArguments(of: try command(for: request(.put, body: Data(body.utf8))))
        #expect(arguments == ["-v", "-X", "PUT", "--data-binary", body, Self.url.absoluteString])
    }

    @Test func aQuoteInTheURLIsKept() throws {
        var quoted = request()
        quoted.url = URL(string: "https://api.example.test/search?q=it's")
        let arguments = try textArguments(of: try command(for: quoted))
        #expect(arguments == ["-v", "https://api.example.test/search?q=it's"])
    }

    @Test func aBodyThatIsNotTextArrivesByteForByte() throws {
        let bytes = Data([0xFF, 0x27, 0x0A, 0x01, 0x80, 0x5C, 0x24])
        let rendered = try command(for: request(.post, body: bytes))
        // ANSI-C quoting (`$'\xff'`) is understood by bash and zsh.
        let arguments = try shellArguments(of: rendered, shell: "/bin/bash")
        #expect(arguments == [Data("-v".utf8), Data("-X".utf8), Data("POST".utf8), Data("--data-binary".utf8), bytes, Data(Self.url.absoluteString.utf8)])
    }

    @Test func sessionHeadersAreIncludedAndTheRequestsOwnWin() throws {
        let rendered = try command(
            for: request(headers: ["accept": "application/json"]),
            sessionHeaders: ["Accept": "*/*", "User-Agent": "Moya/15"]
        )
        #expect(try textArguments(of: rendered) == [
            "-v", "-H", "accept: application/json", "-H", "User-Agent: Moya/15", Self.url.absoluteString,
        ])
    }

    @Test func theRequestTypeGivenToPluginsDescribesTheRequestItSends() async throws {
        let log = EventLog()
        let provider = MoyaProvider<DynamicTarget>(stubClosure: MoyaProvider.immediatelyStub, plugins: [CURLCapturingPlugin(log: log)])
        let target = DynamicTarget(
            baseURL: URL(string: "https://api.example.test")!,
            path: "/notes",
            method: .post,
            makeTask: { .requestParameters(parameters: ["title": "Don't panic"], encoding: JSONEncoding.default) },
            headers: ["X-Client": "tests"]
        )
        _ = try await provider.requestAndWait(target, callbackQueue: DispatchQueue(label: "curl-tests")).get()
        let rendered = try #require(log.all.first)
        let arguments = try textArguments(of: rendered)
        #expect(arguments.first == "-v")
        #expect(arguments.last == "https://api.example.test/notes")
        #expect(arguments.contains("Content-Type: application/json"))
        #expect(arguments.contains("X-Client: tests"))
        let body = try #require(arguments.firstIndex(of: "--data-binary").map { arguments[$0 + 1] })
        #expect(body == #"{"title":"Don't panic"}"#)
    }
}
