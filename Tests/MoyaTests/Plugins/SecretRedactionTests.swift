import Foundation
import LoopbackServer
import NIOCore
import Testing

@testable import Moya

/// Each rule that keeps a credential out of the logger's entries, one test per rule.
@Suite("NetworkLoggerPlugin keeps credentials out of its entries")
struct NetworkLoggerRedactionTests {
    private typealias F = LoggerFixture
    private static let passwordURL = URL(string: "https://ada:s3cret@api.example.test/zen")!

    // MARK: Headers

    @Test func eachDefaultCredentialHeaderIsRedactedInRequestHeaders() {
        let (plugin, log) = F.logger(.requestHeaders)
        let headers = [
            "Authorization": "Bearer t0ken",
            "proxy-authorization": "Basic cHJveHk=",
            "Cookie": "session=abc123",
            "Set-Cookie": "session=def456",
            "X-Visible": "shown",
        ]
        plugin.willSend(StubRequest(F.request(headers: headers)), target: PipelineTarget.zen)
        #expect(
            F.entries(log, "Request Headers") == [
                #"Request Headers: ["Authorization": "<redacted>", "Cookie": "<redacted>", "proxy-authorization": "<redacted>", "#
                    + #""Set-Cookie": "<redacted>", "X-Visible": "shown"]"#
            ]
        )
    }

    @Test func headerNamesAreComparedCaseInsensitively() {
        let (plugin, log) = F.logger(.requestHeaders, redactedHeaders: ["X-Api-Key", "AUTHORIZATION"])
        plugin.willSend(
            StubRequest(F.request(headers: ["x-api-key": "k3y", "authorization": "Bearer t0ken"])),
            target: PipelineTarget.zen
        )
        #expect(
            F.entries(log, "Request Headers") == [
                #"Request Headers: ["authorization": "<redacted>", "x-api-key": "<redacted>"]"#
            ]
        )
    }

    @Test func sessionHeadersAreRedactedToo() {
        let (plugin, log) = F.logger(.requestHeaders)
        plugin.willSend(
            StubRequest(F.request(), sessionHeaders: ["Authorization": "Basic c2Vzc2lvbg=="]),
            target: PipelineTarget.zen
        )
        #expect(F.entries(log, "Request Headers") == [#"Request Headers: ["Authorization": "<redacted>"]"#])
    }

    @Test func credentialHeadersAreRedactedInTheCURLCommand() {
        let (plugin, log) = F.logger(.formatRequestAscURL)
        let request = F.request(headers: ["Authorization": "Bearer t0ken", "X-A": "1"])
        plugin.willSend(
            MoyaRequest(request: request, sessionHeaders: ["Proxy-Authorization": "Basic cHJveHk="]),
            target: PipelineTarget.zen
        )
        #expect(
            log.all == [
                "Request: "
                    + [
                        "$ curl -v", "-X POST", #"-H "Authorization: <redacted>""#,
                        #"-H "Proxy-Authorization: <redacted>""#,
                        #"-H "X-A: 1""#, #""https://api.example.test/zen?x=1""#,
                    ].joined(separator: " \\\n\t")
            ]
        )
    }

    @Test func setCookieIsRedactedInTheResponseEntryWhichKeepsHTTPURLResponsesShape() {
        let (plugin, log) = F.logger([])
        plugin.didReceive(
            .success(F.response(200, body: "", headers: ["Set-Cookie": "session=abc123", "X-Id": "7"])),
            target: PipelineTarget.zen
        )
        let expected = F.httpResponse(200, headers: ["Set-Cookie": "<redacted>", "X-Id": "7"]).description
        #expect(F.entries(log, "Response").map(F.withoutAddresses) == [F.withoutAddresses("Response: \(expected)")])
        #expect(!log.all.joined().contains("abc123"))
    }

    @Test func redactedHeadersCanBeChosen() {
        let (plugin, log) = F.logger(.requestHeaders, redactedHeaders: ["X-Api-Key"])
        plugin.willSend(
            StubRequest(F.request(headers: ["X-Api-Key": "k3y", "Authorization": "Bearer visible"])),
            target: PipelineTarget.zen
        )
        #expect(
            F.entries(log, "Request Headers") == [
                #"Request Headers: ["Authorization": "Bearer visible", "X-Api-Key": "<redacted>"]"#
            ]
        )
    }

    @Test func anEmptyRedactionSetLogsEveryHeaderValue() {
        let (plugin, log) = F.logger(.requestHeaders, redactedHeaders: [])
        plugin.willSend(
            StubRequest(F.request(headers: ["Authorization": "Bearer visible"])),
            target: PipelineTarget.zen
        )
        #expect(F.entries(log, "Request Headers") == [#"Request Headers: ["Authorization": "Bearer visible"]"#])
    }

    // MARK: URL passwords

    @Test func aURLPasswordIsReplacedInTheRequestEntryAndTheUserNameKept() {
        let (plugin, log) = F.logger([])
        plugin.willSend(StubRequest(F.request(url: Self.passwordURL)), target: PipelineTarget.zen)
        #expect(log.all == ["Request: https://ada:redacted@api.example.test/zen"])
    }

    @Test func aURLPasswordIsReplacedInTheResponseEntry() {
        let (plugin, log) = F.logger([])
        plugin.didReceive(.success(F.response(200, body: "", url: Self.passwordURL)), target: PipelineTarget.zen)
        let expected = F.httpResponse(200, url: URL(string: "https://ada:redacted@api.example.test/zen")!).description
        #expect(F.entries(log, "Response").map(F.withoutAddresses) == [F.withoutAddresses("Response: \(expected)")])
        #expect(!log.all.joined().contains("s3cret"))
    }

    @Test func aURLPasswordIsReplacedInTheCURLCommand() {
        let (plugin, log) = F.logger(.formatRequestAscURL)
        plugin.willSend(
            MoyaRequest(request: F.request(.get, url: Self.passwordURL), sessionHeaders: [:]),
            target: PipelineTarget.zen
        )
        #expect(log.all == ["Request: $ curl -v \\\n\t-X GET \\\n\t\"https://ada:redacted@api.example.test/zen\""])
    }

    @Test func aURLPasswordIsReplacedEvenWhenNoHeaderIsRedacted() {
        let (plugin, log) = F.logger(.formatRequestAscURL, redactedHeaders: [])
        plugin.willSend(
            MoyaRequest(request: F.request(url: Self.passwordURL), sessionHeaders: [:]),
            target: PipelineTarget.zen
        )
        #expect(log.all.first?.hasSuffix(#""https://ada:redacted@api.example.test/zen""#) == true)
    }

    @Test func aPercentEncodedPasswordIsReplacedWholeAndTheRestOfTheURLKept() {
        let url = URL(string: "http://ada%20l:p%40ss%3Aw@api.example.test:8080/a%20b?q=1#top")!
        #expect(
            URLRedaction.hidingPassword(url).absoluteString
                == "http://ada%20l:redacted@api.example.test:8080/a%20b?q=1#top"
        )
        #expect(URLRedaction.removingUserInfo(url).absoluteString == "http://api.example.test:8080/a%20b?q=1#top")
    }

    @Test func aURLWithoutPasswordIsLoggedUnchanged() {
        let userOnly = URL(string: "https://ada@api.example.test/zen")!
        #expect(URLRedaction.hidingPassword(userOnly) == userOnly)
        #expect(URLRedaction.hidingPassword(LoggerFixture.url) == LoggerFixture.url)
        let (plugin, log) = F.logger([])
        plugin.willSend(StubRequest(F.request(url: userOnly)), target: PipelineTarget.zen)
        #expect(log.all == ["Request: https://ada@api.example.test/zen"])
    }

    @Test func aVerboseLogOfARealExchangeWithAPasswordURLHoldsNoPassword() async throws {
        let (plugin, log) = F.logger(.verbose)
        let curl = F.logger(LogOptions.verbose.union(.formatRequestAscURL)).0
        curl.configuration.output = plugin.configuration.output
        curl.configuration.formatter = plugin.configuration.formatter
        let provider = MoyaProvider<DynamicTarget>(plugins: [plugin, curl])
        let redactedBase = try await TestServer.with({ router in
            router.get("profile") { _, _ in "hello" }
        }) { server in
            var components = try #require(URLComponents(url: server.baseURL, resolvingAgainstBaseURL: false))
            components.user = "ada"
            components.password = "s3cret"
            _ = try await provider.request(DynamicTarget(baseURL: try #require(components.url), path: "/profile"))
            components.password = "redacted"
            return try #require(components.url).absoluteString
        }
        #expect(!log.all.joined().contains("s3cret"))
        // Request, cURL command and one Response per plugin.
        #expect(log.all.filter { $0.contains(redactedBase + "/profile") }.count == 4, "\(log.all)")
        #expect(F.entries(log, "Response Body") == ["Response Body: hello", "Response Body: hello"])
    }
}

/// The URL an error names loses its user info, which URLSession would keep.
@Suite("URLErrorMapping drops user info from the URLs of errors")
struct URLErrorMappingUserInfoTests {
    @Test func aRefusedConnectionToAURLWithAPasswordGivesAnErrorWithoutIt() async throws {
        var components = try #require(URLComponents(url: TestServer.unreachableBaseURL, resolvingAgainstBaseURL: false))
        components.user = "user"
        components.password = "secret"
        let baseURL = try #require(components.url)
        let provider = MoyaProvider<DynamicTarget>()
        let error: MoyaError
        do {
            let response = try await provider.request(DynamicTarget(baseURL: baseURL, path: "/"))
            Issue.record("expected a refused connection, got \(response)")
            return
        } catch let caught {
            error = caught
        }
        guard case .underlying(let inner, nil) = error else {
            Issue.record("expected .underlying(_, nil), got \(error)")
            return
        }
        let nsError = inner as NSError
        #expect(nsError.code == NSURLErrorCannotConnectToHost)
        let failingURL = nsError.userInfo[NSURLErrorFailingURLErrorKey] as? URL
        #expect(failingURL?.absoluteString == "http://127.0.0.1:1/")
        let texts =
            nsError.userInfo.values.map { "\($0)" } + [
                "\(nsError)", nsError.localizedDescription, "\(error)", error.errorDescription ?? "",
                error.localizedDescription,
            ]
        for text in texts {
            #expect(!text.contains("secret"), "\(text)")
        }
    }

    @Test func aURLWithoutUserInfoIsKeptAsItIs() {
        let url = URL(string: "https://api.example.test/zen?x=1")!
        let error = URLErrorMapping.map(ChannelError.connectTimeout(.seconds(1)), url: url) as NSError
        #expect(error.code == NSURLErrorTimedOut)
        #expect(error.userInfo[NSURLErrorFailingURLErrorKey] as? URL == url)
    }
}
