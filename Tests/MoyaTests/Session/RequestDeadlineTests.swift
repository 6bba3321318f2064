import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import LoopbackServer
import NIOCore
import Testing

@testable import Moya

/// The whole-request timeout is one deadline per request, which no attempt extends.
@Suite("The whole-request deadline")
struct RequestDeadlineTests {
    @Test(.timeLimit(.minutes(2)))
    func theAnswerToA401ChallengeKeepsTheFirstAttemptsDeadline() async throws {
        // Under a sanitizer, with the rest of the suite running beside it, the first attempt and
        // the challenge's answer can take several seconds: the second attempt and the deadline
        // grow by the same 8 seconds, so that it still starts well before the deadline.
        let slack = ProcessInfo.processInfo.environment["MOYA_TEST_SANITIZER"] != nil ? 8 : 0
        let attempts = Counter()
        try await TestServer.with({ router in
            router.get("slow-challenge") { request, _ -> Response in
                attempts.increment()
                guard request.headers[.authorization] != nil else {
                    try await _Concurrency.Task.sleep(for: .seconds(1))
                    return Response(status: .unauthorized, headers: [.wwwAuthenticate: "Basic realm=\"tests\""])
                }
                try await _Concurrency.Task.sleep(for: .milliseconds(9000 + slack * 1000))
                return Response(status: .ok)
            }
        }) { server in
            // The attempts take 1 and 9 seconds (plus the slack): alone, each fits in 10 seconds
            // (plus the slack); together they do not. The first has 9 seconds to spare, for a
            // loaded machine that is slow to schedule the server. (Wide margins: the event loops are shared
            // with the rest of the suite, and the suite also runs under ThreadSanitizer, many
            // times slower.)
            let session = Session(configuration: .init(requestTimeout: .seconds(10 + Int64(slack))))
            let credential = URLCredential(user: "moya", password: "secret", persistence: .none)
            let provider = MoyaProvider<DynamicTarget>(
                session: session,
                plugins: [CredentialsPlugin { _ in credential }]
            )
            let error = await expectUnderlyingFailure("the second attempt must not get a deadline of its own") {
                try await provider.request(DynamicTarget(baseURL: server.baseURL, path: "/slow-challenge"))
            }
            #expect(error?.code == NSURLErrorTimedOut)
            #expect(error?.localizedDescription.contains("whole-request timeout of \(10 + slack).0 seconds") == true)
            #expect(attempts.count == 2)
        }
    }

    @Test(
        .timeLimit(.minutes(2)),
        .disabled(
            if: ProcessInfo.processInfo.environment["MOYA_TEST_SANITIZER"] != nil,
            "its timings (a held connection, 1-second pool waits, a 4-second deadline) are the point, and a sanitizer slows them past their margins"
        )
    )
    func aRequestQueuedAgainForAConnectionKeepsItsFirstDeadline() async throws {
        let (arrived, arrivedContinuation) = AsyncStream<Void>.makeStream()
        try await TestServer.with({ router in
            router.get("hold") { _, _ -> String in
                arrivedContinuation.yield()
                try await _Concurrency.Task.sleep(for: .seconds(7))
                return "late"
            }
            router.get("fast") { _, _ -> String in "fast" }
        }) { server in
            // One connection, held for 7 seconds by a request without a deadline. The pool gives
            // up on a waiting request every second, and the session queues it again each time,
            // until the 4-second deadline (3 seconds before the connection is free).
            var configuration = Session.Configuration(
                connectTimeout: .seconds(1),
                requestTimeout: .seconds(4)
            )
            configuration.asyncHTTPClient.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 1
            let session = Session(configuration: configuration)
            let holder = session.httpClient.get(url: server.baseURL.appendingPathComponent("hold").absoluteString)
            // Ends the wait below even if the holder never reached the server.
            holder.whenComplete { _ in arrivedContinuation.finish() }
            for await _ in arrived { break }

            let provider = MoyaProvider<DynamicTarget>(session: session)
            let error = await expectUnderlyingFailure("a queued request must fail at its first deadline") {
                try await provider.request(DynamicTarget(baseURL: server.baseURL, path: "/fast"))
            }
            // A deadline renewed per trip to the pool would never pass before the wait's own
            // limit, which fails the request saying it waited for a connection.
            #expect(error?.code == NSURLErrorTimedOut)
            #expect(error?.localizedDescription.contains("whole-request timeout of 4.0 seconds") == true)
            _ = try? await holder.get()
        }
    }

    @Test func aDeadlineWithoutItsTimeoutNamesTheSetting() {
        let error = URLErrorMapping.map(HTTPClientError.deadlineExceeded, url: nil) as NSError
        #expect(error.domain == NSURLErrorDomain)
        #expect(error.code == NSURLErrorTimedOut)
        #expect(error.localizedDescription.contains("did not finish within its whole-request timeout"))
        #expect(error.localizedDescription.contains("Session.Configuration.requestTimeout"))
    }
}
