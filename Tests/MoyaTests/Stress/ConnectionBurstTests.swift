import Foundation
import Hummingbird
import LoopbackServer
import Moya
import NIOCore
import Testing

/// A burst far larger than the connection pool, through the default session: every request
/// waits its turn for a connection instead of failing after the connect timeout.
@Suite("A burst through the default session")
struct ConnectionBurstTests {
    /// Bounded: 2,000 requests to one loopback server, each answered after 50 ms. Under a
    /// sanitizer (`scripts/test-sanitized.sh`), which makes every request many times slower,
    /// 2,000 would outlast their own 60-second timeouts: 200 still queue far beyond the pool.
    static let burst = ProcessInfo.processInfo.environment["MOYA_TEST_SANITIZER"] == nil ? 2_000 : 200

    @Test(.timeLimit(.minutes(2)))
    func twoThousandConcurrentRequestsToASlowUpstreamAllSucceed() async throws {
        try await TestServer.with({ router in
            router.get("slow") { _, _ -> String in
                try await _Concurrency.Task.sleep(for: .milliseconds(50))
                return "ok"
            }
        }) { server in
            let provider = MoyaProvider<DynamicTarget>()
            let target = DynamicTarget(baseURL: server.baseURL, path: "/slow")
            let failures = await withTaskGroup(of: String?.self) { group in
                for _ in 0..<Self.burst {
                    group.addTask {
                        do {
                            let response = try await provider.request(target)
                            return response.statusCode == 200 ? nil : "status \(response.statusCode)"
                        } catch {
                            return "\(error)"
                        }
                    }
                }
                var failures: [String] = []
                for await failure in group {
                    if let failure { failures.append(failure) }
                }
                return failures
            }
            #expect(failures.isEmpty, "\(failures.count) of \(Self.burst) failed; first: \(failures.first ?? "")")
        }
    }

    @Test(
        .timeLimit(.minutes(2)),
        .disabled(
            if: ProcessInfo.processInfo.environment["MOYA_TEST_SANITIZER"] != nil,
            "its timings (a held connection, a 1-second wait) are the point, and a sanitizer slows them past their margins"
        )
    )
    func aWaitThatOutlastsTheRequestsTimeoutSaysItWaitedForAConnection() async throws {
        let (arrived, arrivedContinuation) = AsyncStream<Void>.makeStream()
        try await TestServer.with({ router in
            router.get("hold") { _, _ -> String in
                arrivedContinuation.yield()
                try await _Concurrency.Task.sleep(for: .seconds(3))
                return "late"
            }
        }) { server in
            // One connection, held by the first request; the second may wait 1 second only.
            var configuration = Session.Configuration(connectTimeout: .milliseconds(500))
            configuration.asyncHTTPClient.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 1
            let session = Session(configuration: configuration)
            let target = DynamicTarget(baseURL: server.baseURL, path: "/hold")
            let holder = _Concurrency.Task {
                _ = try? await MoyaProvider<DynamicTarget>(session: session).request(target)
                // Ends the wait below even if the holder never reached the server.
                arrivedContinuation.finish()
            }
            for await _ in arrived { break }

            let impatient = MoyaProvider<DynamicTarget>(
                requestClosure: { endpoint, done in
                    do {
                        var request = try endpoint.urlRequest()
                        request.timeoutInterval = 1
                        done(.success(request))
                    } catch {
                        done(.failure(MoyaError.underlying(error, nil)))
                    }
                },
                session: session
            )
            let error = await expectUnderlyingFailure("a wait longer than the request's timeout must fail") {
                try await impatient.request(target)
            }
            #expect(error?.code == NSURLErrorTimedOut)
            #expect(error?.localizedDescription.contains("waiting 1.0 seconds for a connection") == true)
            _ = await holder.value
        }
    }
}
