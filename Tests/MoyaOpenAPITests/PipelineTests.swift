#if OpenAPI
import Foundation
import HTTPTypes
import Hummingbird
import LoopbackServer
import Moya
import MoyaOpenAPI
import MoyaTesting
import NIOConcurrencyHelpers
import NIOCore
import OpenAPIRuntime
import Testing

@Suite("Moya's pipeline applied to a generated client")
struct PipelineTests {
    /// Retries at once, so that the test does not wait for a backoff.
    private let quickRetries = RetryPolicy(retryLimit: 2, exponentialBackoffScale: 0.001, jitter: 0)

    @Test func aRetryPolicyRetriesA503AndTheClientSeesTheSuccess() async throws {
        let hits = Counter()
        let server = try await TestServer.start { NotesRoutes.busyGreetings($0, failures: 1, hits: hits) }
        let provider = MoyaProvider<OpenAPIOperation>(session: isolatedSession(), interceptor: quickRetries)
        let output = try await makeClient(server.baseURL, provider: provider).getGreeting(path: .init(name: "Ada"))
        #expect(try output.ok.body.json.message == "Hello, Ada!")
        #expect(hits.count == 2)
    }

    @Test func withoutARetryPolicyThe503ReachesTheClientAsTheDocumentDeclaresIt() async throws {
        let hits = Counter()
        let server = try await TestServer.start { NotesRoutes.busyGreetings($0, failures: 1, hits: hits) }
        let provider = MoyaProvider<OpenAPIOperation>(session: isolatedSession())
        let output = try await makeClient(server.baseURL, provider: provider).getGreeting(path: .init(name: "Ada"))
        guard case .serviceUnavailable = output else {
            Issue.record("expected the document's 503 case, got \(output)")
            return
        }
        #expect(hits.count == 1)
    }

    @Test func anAuthenticationInterceptorRefreshesARefusedTokenAndReplaysTheOperation() async throws {
        let rejections = Counter()
        let refreshes = Counter()
        let server = try await TestServer.start { NotesRoutes.profile($0, valid: "t2", rejections: rejections) }
        let auth = AuthenticationInterceptor(
            authenticator: TokenAuthenticator(refreshes: refreshes),
            credential: Token(value: "t1")
        )
        let provider = MoyaProvider<OpenAPIOperation>(session: isolatedSession(), interceptor: auth)
        let output = try await makeClient(server.baseURL, provider: provider).getProfile()
        #expect(try output.ok.body.json.name == "Ada (t2)")
        #expect(rejections.count == 1)
        #expect(refreshes.count == 1)
    }

    @Test func theSessionsCacheAnswersARepeatedOperationWithoutReachingTheServer() async throws {
        let hits = Counter()
        let server = try await TestServer.start { NotesRoutes.greetings($0, hits: hits, cacheControl: "max-age=60") }
        let session = isolatedSession(cache: .memory(maxBytes: 1 << 20))
        let client = makeClient(server.baseURL, provider: MoyaProvider(session: session))
        let first = try await client.getGreeting(path: .init(name: "Ada")).ok.body.json
        let second = try await client.getGreeting(path: .init(name: "Ada")).ok.body.json
        #expect(first.message == "Hello, Ada!")
        #expect(second == first)
        #expect(hits.count == 1)
    }

    @Test func repeatedResponseFieldLinesReachTheClientOneFieldEach() async throws {
        let server = try await TestServer.start { router in
            router.get("trace") { _, _ -> Hummingbird.Response in
                var headers: HTTPFields = [.contentType: "text/plain"]
                headers.append(HTTPField(name: .init("X-Trace")!, value: "first"))
                headers.append(HTTPField(name: .init("X-Trace")!, value: "second, third"))
                let body = Hummingbird.ResponseBody(byteBuffer: ByteBuffer(string: "ok"))
                return Hummingbird.Response(status: .ok, headers: headers, body: body)
            }
        }
        let transport = MoyaTransport(provider: MoyaProvider<OpenAPIOperation>(session: isolatedSession()))
        let (response, body) = try await transport.send(
            HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/trace"),
            body: nil,
            baseURL: server.baseURL,
            operationID: "getTrace"
        )
        #expect(response.status == .ok)
        #expect(response.headerFields[values: .init("X-Trace")!] == ["first", "second, third"])
        #expect(response.headerFields[.contentType] == "text/plain")
        let text = try await String(collecting: try #require(body), upTo: 64)
        #expect(text == "ok")
    }

    @Test func theLoggerNamesTheOperationID() async throws {
        let server = try await TestServer.start { NotesRoutes.greetings($0) }
        let lines = NIOLockedValueBox<[String]>([])
        let logger = NetworkLoggerPlugin(
            configuration: .init(
                output: { target, items in
                    lines.withLockedValue { lines in lines += items.map { "[\(target)] \($0)" } }
                },
                logOptions: .verbose
            )
        )
        let provider = MoyaProvider<OpenAPIOperation>(session: isolatedSession(), plugins: [logger])
        _ = try await makeClient(server.baseURL, provider: provider).getGreeting(path: .init(name: "Ada"))
        let logged = lines.withLockedValue { $0 }
        #expect(!logged.isEmpty)
        #expect(logged.allSatisfy { $0.hasPrefix("[getGreeting] ") }, "\(logged)")
        #expect(logged.contains { $0.contains("Hello, Ada!") }, "the buffered response's body is logged")
    }

    @Test func stubsAnswerEachOperationWithTheSampleResponseChosenByItsOperationID() async throws {
        let provider = MoyaProvider<OpenAPIOperation>(
            endpointClosure: { operation in
                MoyaProvider.defaultEndpointMapping(for: operation).replacing(sampleResponseClosure: {
                    switch operation.operationID {
                    case "getGreeting":
                        return .json(#"{"message": "stubbed greeting"}"#)
                    case "createNote":
                        return .json(#"{"id": 1, "title": "stubbed", "length": 0}"#, statusCode: 201)
                    default:
                        return .response(statusCode: 404)
                    }
                })
            },
            stubClosure: MoyaProvider.immediatelyStub
        )
        // Nothing listens there: only the stubs can answer.
        let client = makeClient(TestServer.unreachableBaseURL, provider: provider)
        let greeting = try await client.getGreeting(path: .init(name: "Ada")).ok.body.json
        let note = try await client.createNote(body: .json(.init(title: "x", text: "y"))).created.body.json
        let profile = try await client.getProfile()
        #expect(greeting.message == "stubbed greeting")
        #expect(note.title == "stubbed")
        guard case .undocumented(statusCode: 404, _) = profile else {
            Issue.record("expected the default sample's 404, got \(profile)")
            return
        }
    }
}

/// A bearer token, refreshed from `t<n>` to `t<n+1>`.
struct Token: AuthenticationCredential, Equatable {
    var value: String
    var requiresRefresh: Bool { false }
}

/// Refreshes `Token`s, counting refreshes.
struct TokenAuthenticator: Authenticator {
    let refreshes: Counter

    func apply(_ credential: Token, to request: inout URLRequest) {
        request.setValue("Bearer \(credential.value)", forHTTPHeaderField: "Authorization")
    }

    func refresh(_ credential: Token) async throws -> Token {
        refreshes.increment()
        return Token(value: "t\((Int(credential.value.dropFirst()) ?? 0) + 1)")
    }

    func isRequest(_ request: URLRequest, authenticatedWith credential: Token) -> Bool {
        request.value(forHTTPHeaderField: "Authorization") == "Bearer \(credential.value)"
    }
}
#endif
