import Foundation
import Hummingbird
import LoopbackServer
import NIOCore
import Testing

@testable import Moya

/// Timeouts, the same through every transport: the idle timeout counts the time without bytes,
/// the whole-request timeout the whole exchange, and both fail with `NSURLErrorTimedOut`.
@Suite("Transport contract: timeouts")
struct TransportContractTimeoutTests {
    /// `/silent` answers only once `release` is yielded to (the test's end), so a timeout is
    /// the only way a request to it ends in time; `/trickle` sends a byte every 300 ms, 8 times
    /// or `?count=` times.
    private func addRoutes(_ router: Router<BasicRequestContext>, release: AsyncStream<Void>) {
        router.get("silent") { _, _ -> Hummingbird.Response in
            for await _ in release { break }
            return Hummingbird.Response(status: .ok)
        }
        router.get("trickle") { request, _ in
            let count = request.uri.queryParameters.get("count", as: Int.self) ?? 8
            return Hummingbird.Response(
                status: .ok,
                body: ResponseBody { writer in
                    for _ in 0..<count {
                        try await writer.write(ByteBuffer(string: "x"))
                        try await _Concurrency.Task.sleep(for: .milliseconds(300))
                    }
                    try await writer.finish(nil)
                }
            )
        }
    }

    @Test(.timeLimit(.minutes(1)), arguments: TransportUnderTest.allCases)
    func aServerSilentLongerThanTheIdleTimeoutFailsTheRequestTimedOut(_ transport: TransportUnderTest) async throws {
        let (release, releaseNow) = AsyncStream<Void>.makeStream()
        defer { releaseNow.finish() }
        try await TestServer.with({ addRoutes($0, release: release) }) { server in
            let provider = transport.provider(.init(readTimeout: .milliseconds(500), cookieStorage: nil))
            let error = await expectUnderlyingFailure("a silent server must time out") {
                try await provider.request(DynamicTarget(baseURL: server.baseURL, path: "/silent"))
            }
            #expect(error?.domain == NSURLErrorDomain)
            #expect(error?.code == NSURLErrorTimedOut)
        }
    }

    @Test(.timeLimit(.minutes(1)), arguments: TransportUnderTest.allCases)
    func bytesArrivingWithinTheIdleTimeoutKeepTheRequestAlive(_ transport: TransportUnderTest) async throws {
        let (release, releaseNow) = AsyncStream<Void>.makeStream()
        defer { releaseNow.finish() }
        try await TestServer.with({ addRoutes($0, release: release) }) { server in
            // Bytes every 300 ms, a tenth of the idle timeout, so that a busy machine delaying the
            // server's writes does not make it look silent; the transfer lasts twice the timeout,
            // so that it fails if bytes did not keep it alive. Wider under a sanitizer, which
            // slows the server and the client many times over.
            let sanitized = ProcessInfo.processInfo.environment["MOYA_TEST_SANITIZER"] != nil
            let idleTimeout: Int64 = sanitized ? 10 : 3
            let count = Int(idleTimeout) * 2 * 1000 / 300
            let provider = transport.provider(.init(readTimeout: .seconds(idleTimeout), cookieStorage: nil))
            let target = DynamicTarget(
                baseURL: server.baseURL,
                path: "/trickle",
                makeTask: { .requestParameters(parameters: ["count": count], encoding: URLEncoding.queryString) }
            )
            let response = try await provider.request(target)
            #expect(try response.mapString() == String(repeating: "x", count: count))
        }
    }

    @Test(.timeLimit(.minutes(1)), arguments: TransportUnderTest.allCases)
    func aResponseStillArrivingAtTheWholeRequestTimeoutFailsTimedOut(_ transport: TransportUnderTest) async throws {
        let (release, releaseNow) = AsyncStream<Void>.makeStream()
        defer { releaseNow.finish() }
        try await TestServer.with({ addRoutes($0, release: release) }) { server in
            // Bytes every 300 ms keep the idle timeout away; the 2.4 s body outlasts the limit.
            let configuration = Session.Configuration(
                readTimeout: .seconds(5),
                requestTimeout: .milliseconds(900),
                cookieStorage: nil
            )
            let error = await expectUnderlyingFailure("a response longer than the limit must time out") {
                try await transport.provider(configuration)
                    .request(DynamicTarget(baseURL: server.baseURL, path: "/trickle"))
            }
            #expect(error?.domain == NSURLErrorDomain)
            #expect(error?.code == NSURLErrorTimedOut)
        }
    }
}
