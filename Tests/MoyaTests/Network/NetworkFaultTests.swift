import Foundation
import Hummingbird
import LoopbackServer
import Moya
import Testing

@Suite("Server faults end in a MoyaError, promptly")
struct NetworkFaultTests {
    /// Sends one request to a raw server and returns the error it produced within 10 seconds.
    private func failure(
        response: String,
        ending: RawServer.Ending,
        session: Session = .default
    ) async throws -> MoyaError? {
        let server = try await RawServer.start(response: response, ending: ending)
        let provider = MoyaProvider<DynamicTarget>(session: session)
        let started = ContinuousClock.now
        defer { _Concurrency.Task { await server.stop() } }
        do {
            let response = try await provider.request(DynamicTarget(baseURL: server.baseURL, path: "/"))
            Issue.record("expected a failure, got \(response)")
            return nil
        } catch {
            #expect(ContinuousClock.now - started < .seconds(10))
            return error
        }
    }

    /// Expects `.underlying` without a response, carrying the `NSURLErrorDomain` code URLSession
    /// reports for the same fault.
    private func expectURLError(_ code: Int, in error: MoyaError?, sourceLocation: SourceLocation = #_sourceLocation) {
        guard case .underlying(let inner, nil)? = error else {
            Issue.record(
                "expected .underlying(_, nil), got \(String(describing: error))",
                sourceLocation: sourceLocation
            )
            return
        }
        let nsError = inner as NSError
        #expect(nsError.domain == NSURLErrorDomain, sourceLocation: sourceLocation)
        #expect(nsError.code == code, "\(nsError)", sourceLocation: sourceLocation)
        #expect(nsError.userInfo[NSUnderlyingErrorKey] != nil, sourceLocation: sourceLocation)
        #expect(
            error?.errorDescription?.contains("The operation could not be completed") == false,
            sourceLocation: sourceLocation
        )
    }

    @Test func garbageStatusLineFailsWithBadServerResponse() async throws {
        let error = try await failure(response: "SMTP ready, not HTTP at all\r\n\r\n", ending: .close)
        expectURLError(NSURLErrorBadServerResponse, in: error)
    }

    @Test func bodyShorterThanContentLengthFailsWithBadServerResponse() async throws {
        let error = try await failure(
            response: "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly this",
            ending: .close
        )
        expectURLError(NSURLErrorBadServerResponse, in: error)
    }

    @Test func resetMidBodyFailsWithNetworkConnectionLost() async throws {
        let error = try await failure(response: "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\npartial", ending: .reset)
        expectURLError(NSURLErrorNetworkConnectionLost, in: error)
    }

    @Test func brokenChunkedEncodingFailsWithBadServerResponse() async throws {
        let error = try await failure(
            response: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nnot a chunk\r\n",
            ending: .close
        )
        expectURLError(NSURLErrorBadServerResponse, in: error)
    }

    @Test func closeBeforeAnyResponseFailsWithNetworkConnectionLost() async throws {
        let error = try await failure(response: "", ending: .close)
        expectURLError(NSURLErrorNetworkConnectionLost, in: error)
    }

    @Test func stalledHeadFailsWithTimedOut() async throws {
        let session = Session(configuration: .init(readTimeout: .milliseconds(300)))
        let error = try await failure(response: "", ending: .stall, session: session)
        guard case .underlying(let inner, nil)? = error else {
            Issue.record("expected .underlying, got \(String(describing: error))")
            return
        }
        #expect((inner as NSError).code == NSURLErrorTimedOut)
    }

    @Test func redirectLoopFailsAfterTheLimit() async throws {
        let hits = Counter()
        try await TestServer.with({ router in
            router.get("loop") { _, _ in
                hits.increment()
                return Response(status: .found, headers: [.location: "/loop?n=\(hits.count)"])
            }
        }) { server in
            let session = Session(configuration: .init(redirectConfiguration: .follow(max: 3, allowCycles: true)))
            let provider = MoyaProvider<DynamicTarget>(session: session)
            let error = await expectUnderlyingFailure("a redirect loop must fail") {
                try await provider.request(DynamicTarget(baseURL: server.baseURL, path: "/loop"))
            }
            #expect(error?.code == NSURLErrorHTTPTooManyRedirects)
            #expect(hits.count <= 4)
        }
    }

    @Test func anIllegalSessionHeaderFailsTheRequestBeforeAnyConnection() async {
        let session = Session(configuration: .init(defaultHeaders: ["X-Evil": "a\r\nInjected: yes"]))
        let provider = MoyaProvider<DynamicTarget>(session: session)
        do {
            // Nothing listens there: had a connection been tried, the error would say so.
            _ = try await provider.request(DynamicTarget(baseURL: TestServer.unreachableBaseURL, path: "/items"))
            Issue.record("an illegal session header must fail the request")
        } catch {
            guard case .underlying(let inner, nil) = error else {
                Issue.record("expected .underlying, got \(error)")
                return
            }
            #expect("\(inner)".contains("X-Evil"))
            #expect((inner as NSError).domain != NSURLErrorDomain)
        }
    }
}
