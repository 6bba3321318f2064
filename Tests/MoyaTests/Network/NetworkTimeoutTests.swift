import Foundation
import HTTPTypes
import Hummingbird
import LoopbackServer
import Moya
import NIOCore
import Testing

@Suite("Timeouts over the network: the idle and the whole-request limit")
struct NetworkTimeoutTests {
    /// `GET /trickle`: a byte every 50 ms for a minute, so the body is never idle long enough
    /// for a read timeout and only a whole-request limit can end it.
    private static func addTrickleRoute(_ router: Router<BasicRequestContext>) {
        router.get("trickle") { _, _ -> Response in
            Response(
                status: .ok,
                body: ResponseBody { writer in
                    for _ in 0..<1200 {
                        try await writer.write(ByteBuffer(string: "."))
                        try await _Concurrency.Task.sleep(for: .milliseconds(50))
                    }
                    try await writer.finish(nil)
                }
            )
        }
    }

    @Test func stalledHeadTimesOutAfterTheRequestsTimeoutInterval() async throws {
        try await TestServer.with({ router in
            router.get("stall") { _, _ -> Response in
                try await _Concurrency.Task.sleep(for: .seconds(60))
                return Response(status: .ok)
            }
        }) { server in
            let provider = MoyaProvider<DynamicTarget>(requestClosure: { endpoint, done in
                do {
                    var request = try endpoint.urlRequest()
                    request.timeoutInterval = 0.5
                    done(.success(request))
                } catch {
                    done(.failure(MoyaError.underlying(error)))
                }
            })
            let started = ContinuousClock.now
            let error = await expectUnderlyingFailure("a stalled server must time out") {
                try await provider.request(DynamicTarget(baseURL: server.baseURL, path: "/stall"))
            }
            #expect(error?.code == NSURLErrorTimedOut)
            #expect(ContinuousClock.now - started < .seconds(10))
        }
    }

    @Test func stalledBodyTimesOutWithTheSessionsReadTimeout() async throws {
        try await TestServer.with({ router in
            router.get("stall-body") { _, _ -> Response in
                Response(
                    status: .ok,
                    headers: [.contentLength: "100"],
                    body: ResponseBody { writer in
                        try await writer.write(ByteBuffer(string: "partial"))
                        try await _Concurrency.Task.sleep(for: .seconds(60))
                        try await writer.finish(nil)
                    }
                )
            }
        }) { server in
            let session = Session(configuration: .init(readTimeout: .milliseconds(500)))
            let provider = MoyaProvider<DynamicTarget>(session: session)
            let started = ContinuousClock.now
            let error = await expectUnderlyingFailure("a stalled body must time out") {
                try await provider.request(DynamicTarget(baseURL: server.baseURL, path: "/stall-body"))
            }
            #expect(error?.code == NSURLErrorTimedOut)
            #expect(error?.localizedDescription.contains("idle timeout") == true)
            #expect(ContinuousClock.now - started < .seconds(10))
        }
    }

    @Test func aBodyThatKeepsTricklingTimesOutWithTheSessionsRequestTimeout() async throws {
        try await TestServer.with(Self.addTrickleRoute) { server in
            let session = Session(configuration: .init(readTimeout: .seconds(5), requestTimeout: .milliseconds(600)))
            let provider = MoyaProvider<DynamicTarget>(session: session)
            let started = ContinuousClock.now
            let error = await expectUnderlyingFailure("a body that never ends must hit the request timeout") {
                try await provider.request(DynamicTarget(baseURL: server.baseURL, path: "/trickle"))
            }
            #expect(error?.code == NSURLErrorTimedOut)
            // Data kept arriving: the message names the whole-request limit, not the idle one.
            #expect(error?.localizedDescription.contains("whole-request timeout") == true)
            #expect(error?.localizedDescription.contains("no data") == false)
            #expect(ContinuousClock.now - started < .seconds(5))
        }
    }

    @Test(
        .disabled(
            if: ProcessInfo.processInfo.environment["MOYA_TEST_SANITIZER"] != nil,
            "a connect timeout shorter than the deadline is its point, and under a sanitizer a loaded machine can take longer than that to connect"
        )
    )
    func theWholeRequestLimitFailsTheSameWhicheverTimerEnforcesIt() async throws {
        try await TestServer.with(Self.addTrickleRoute) { server in
            // With a 10-second connect timeout, a 4-second deadline could pass while the request
            // still waits for a connection: AsyncHTTPClient's own timer enforces it. With 2
            // seconds (and the pool's margin of 1), it cannot: the transfer's idle watch enforces
            // it instead (`TransferScope`). Two seconds to connect on loopback hold on a loaded
            // machine, where 300 ms did not.
            var errors: [NSError] = []
            for connectTimeout in [Duration.seconds(10), .seconds(2)] {
                let session = Session(
                    configuration: .init(
                        connectTimeout: connectTimeout,
                        readTimeout: .seconds(5),
                        requestTimeout: .seconds(4)
                    )
                )
                let provider = MoyaProvider<DynamicTarget>(session: session)
                let started = ContinuousClock.now
                let error = await expectUnderlyingFailure("a body that never ends must hit the request timeout") {
                    try await provider.request(DynamicTarget(baseURL: server.baseURL, path: "/trickle"))
                }
                #expect(ContinuousClock.now - started < .seconds(8))
                if let error {
                    errors.append(error)
                }
            }
            guard errors.count == 2 else { return }
            let (client, watch) = (errors[0], errors[1])
            #expect(watch.domain == NSURLErrorDomain)
            #expect(watch.code == NSURLErrorTimedOut)
            #expect(watch.code == client.code)
            #expect(watch.localizedDescription == client.localizedDescription)
            #expect(watch.localizedDescription.contains("whole-request timeout of 4.0 seconds"))
            #expect(
                watch.userInfo[NSURLErrorFailingURLErrorKey] as? URL
                    == client.userInfo[NSURLErrorFailingURLErrorKey] as? URL
            )
            #expect(watch.userInfo[NSURLErrorFailingURLErrorKey] != nil)
            let underlying = watch.userInfo[NSUnderlyingErrorKey].map { String(describing: type(of: $0)) }
            #expect(underlying == client.userInfo[NSUnderlyingErrorKey].map { String(describing: type(of: $0)) })
        }
    }
}
