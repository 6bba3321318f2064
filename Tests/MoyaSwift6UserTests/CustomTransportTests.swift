import Foundation
import Moya
import Testing

/// A transport written outside the package, as a user would: it serves responses from a
/// dictionary by path, or holds a request until it is cancelled. Running providers on it proves
/// that the `Transport` seam is public and sufficient.
final class DictionaryTransport: Transport {
    private let bodies: [String: Data]
    private let lock = NSLock()
    // Guarded by `lock`.
    nonisolated(unsafe) private var sentPaths: [String] = []
    // Guarded by `lock`.
    nonisolated(unsafe) private var lastSessionHeaders: [String: String] = [:]
    // Guarded by `lock`.
    nonisolated(unsafe) private var lastDeadline: ContinuousClock.Instant?

    /// Yields once per held request.
    let held = AsyncStream<Void>.makeStream()

    init(_ bodies: [String: Data]) {
        self.bodies = bodies
    }

    var sent: [String] {
        lock.withLock { sentPaths }
    }

    /// The whole-request deadline the last exchange carried.
    var deadline: ContinuousClock.Instant? {
        lock.withLock { lastDeadline }
    }

    /// The session's default headers the last exchange carried.
    var sessionHeaders: [String: String] {
        lock.withLock { lastSessionHeaders }
    }

    func send(_ exchange: TransportExchange, events: TransportEvents) {
        let path = exchange.request.url?.path ?? ""
        lock.withLock {
            sentPaths.append(path)
            lastSessionHeaders = exchange.sessionHeaders
            lastDeadline = exchange.deadline
        }
        if path == "/hold" {
            // Answers only when the caller cancels, as a transport that wound down does.
            exchange.cancellation.onCancel {
                events.completion(.failure(.cancelled))
            }
            held.continuation.yield()
            return
        }
        guard let body = bodies[path] else {
            events.completion(.success(Response(statusCode: 404, data: Data(), request: exchange.request)))
            return
        }
        let headers = ["Content-Type": "application/json", "Cache-Control": "max-age=600"]
        let response = exchange.request.url.flatMap {
            HTTPURLResponse(url: $0, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: headers)
        }
        events.completion(
            .success(Response(statusCode: 200, data: body, request: exchange.request, response: response))
        )
    }
}

/// A target whose path is chosen by the test.
struct PathTarget: TargetType {
    var path: String
    var baseURL: URL { URL(string: "https://fixtures.example.test") ?? URL(fileURLWithPath: "/") }
    var method: Moya.Method { .get }
    var task: Moya.Task { .requestPlain }
    var headers: [String: String]? { ["Accept": "application/json"] }
}

@Suite("A transport of the user's own")
struct CustomTransportTests {
    private let transport = DictionaryTransport(["/user": Data(#"{"name":"moya"}"#.utf8)])

    @Test func aProviderOnAUserTransportGetsItsResponsesThroughEverySurface() async throws {
        let provider = MoyaProvider<PathTarget>(session: Session(transport: transport))

        let asyncResponse = try await provider.request(PathTarget(path: "/user"))
        #expect(try asyncResponse.mapString() == #"{"name":"moya"}"#)

        let callbackStatus = await withCheckedContinuation { continuation in
            provider.request(PathTarget(path: "/missing")) { result in
                continuation.resume(returning: (try? result.get())?.statusCode)
            }
        }
        #expect(callbackStatus == 404)

        // A streamed request on a transport that answers whole gets the body as one chunk.
        let streamed = try await provider.stream(PathTarget(path: "/user"))
        var body = Data()
        for try await chunk in streamed.chunks {
            body.append(chunk)
        }
        #expect(body == Data(#"{"name":"moya"}"#.utf8))
        #expect(transport.sent == ["/user", "/missing", "/user"])
    }

    @Test func theSessionsDefaultHeadersReachAUserTransportWithEachExchange() async throws {
        var configuration = Session.Configuration()
        configuration.defaultHeaders["X-Client"] = "mobile/7"
        let provider = MoyaProvider<PathTarget>(session: Session(transport: transport, configuration: configuration))
        _ = try await provider.request(PathTarget(path: "/user"))
        let headers = transport.sessionHeaders
        #expect(headers["X-Client"] == "mobile/7")
        #expect(headers["User-Agent"] == Session.Configuration.defaultHeaders["User-Agent"])
    }

    @Test func theWholeRequestDeadlineReachesAUserTransportOnSwiftsClock() async throws {
        let configuration = Session.Configuration(requestTimeout: .seconds(30))
        let provider = MoyaProvider<PathTarget>(session: Session(transport: transport, configuration: configuration))
        let before = ContinuousClock.now
        _ = try await provider.request(PathTarget(path: "/user"))
        let deadline = try #require(transport.deadline)
        #expect(deadline > before + .seconds(29))
        #expect(deadline <= ContinuousClock.now + .seconds(30))
    }

    @Test func theSessionsCacheAnswersInFrontOfAUserTransport() async throws {
        let session = Session(
            transport: transport,
            configuration: .init(cache: .memory(maxBytes: 1 << 20), cookieStorage: nil)
        )
        let provider = MoyaProvider<PathTarget>(session: session)
        _ = try await provider.request(PathTarget(path: "/user"))
        let second = try await provider.request(PathTarget(path: "/user"))
        #expect(second.cacheStatus.isFromCache)
        #expect(transport.sent == ["/user"], "the second request never reaches the transport")
    }

    @Test func cancellingARequestReachesAUserTransportThroughItsCancellation() async throws {
        let provider = MoyaProvider<PathTarget>(session: Session(transport: transport))
        let task = _Concurrency.Task { try await provider.request(PathTarget(path: "/hold")) }
        var held = transport.held.stream.makeAsyncIterator()
        await held.next()
        task.cancel()
        await #expect(throws: MoyaError.self) { try await task.value }
    }
}
