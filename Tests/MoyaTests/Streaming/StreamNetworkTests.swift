import Foundation
import Hummingbird
import LoopbackServer
import Moya
import NIOCore
import Testing

/// `stream(_:)` against a real server: the head first, chunks in order, validation of the
/// head, plugins told once, cancellation, breaks and timeouts.
@Suite("Streamed responses over the network")
struct StreamNetworkTests {
    @Test(.timeLimit(.minutes(1)))
    func cancellingTheReadingTaskEndsTheRequestAtOnce() async throws {
        let (closed, closedContinuation) = AsyncStream<Void>.makeStream()
        let (started, startedContinuation) = AsyncStream<Void>.makeStream()
        try await TestServer.with({ router in
            router.get("endless") { _, _ in endlessResponse(closed: closedContinuation) }
        }) { server in
            let provider = MoyaProvider<DynamicTarget>()
            let target = DynamicTarget(baseURL: server.baseURL, path: "/endless")
            let reader = _Concurrency.Task { () -> MoyaError? in
                do {
                    let streamed = try await provider.stream(target)
                    for try await _ in streamed.chunks {
                        startedContinuation.yield()
                    }
                    return nil
                } catch {
                    return error as? MoyaError
                }
            }
            for await _ in started { break }
            reader.cancel()
            let error = await reader.value
            #expect(error?.isCancellation == true)
            for await _ in closed { break }
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aRefusedStatusThrowsStatusCodeWithTheBodyThatArrivedBeforeAnyChunk() async throws {
        try await TestServer.with({ router in
            router.get("busy") { _, _ in
                Hummingbird.Response(
                    status: .serviceUnavailable,
                    body: ResponseBody(byteBuffer: ByteBuffer(string: "try later"))
                )
            }
        }) { server in
            let plugin = StreamPluginRecorder()
            let provider = MoyaProvider<DynamicTarget>(plugins: [plugin])
            var target = DynamicTarget(baseURL: server.baseURL, path: "/busy")
            target.validationType = .successCodes
            do {
                _ = try await provider.stream(target)
                Issue.record("a 503 was accepted")
            } catch {
                guard case .underlying(MoyaError.statusCode(let response), let carried?) = error as? MoyaError else {
                    Issue.record("expected a status code error, got \(error)")
                    return
                }
                #expect(response.statusCode == 503)
                #expect(String(decoding: carried.data, as: UTF8.self) == "try later")
            }
            #expect(plugin.log.all == ["willSend", "didReceive"])
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aStreamThatBreaksThrowsAClearErrorAfterTheChunksAlreadyDelivered() async throws {
        // Chunked encoding cut off in the middle of the body: no terminating chunk.
        let server = try await RawServer.start(
            response: "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "b\r\ndata: one\n\n\r\nb\r\ndata: two\n\n\r\n",
            ending: .close
        )
        defer { _Concurrency.Task { await server.stop() } }
        let provider = MoyaProvider<DynamicTarget>()
        var events: [String] = []
        do {
            for try await event in provider.events(DynamicTarget(baseURL: server.baseURL, path: "/")) {
                events.append(event.data)
            }
            Issue.record("the broken stream ended cleanly")
        } catch {
            guard case .underlying(let underlying, let response) = error else {
                Issue.record("expected an underlying error, got \(error)")
                return
            }
            // A chunked body cut short is a malformed response, as URLSession reports it.
            #expect((underlying as NSError).domain == NSURLErrorDomain)
            #expect(
                [NSURLErrorNetworkConnectionLost, NSURLErrorBadServerResponse].contains((underlying as NSError).code)
            )
            #expect(response?.statusCode == 200)
        }
        #expect(events == ["one", "two"])
    }

    @Test(.timeLimit(.minutes(1)))
    func aReaderBehindABodyCutShortStillGetsEveryByteTheServerSentBeforeTheFailure() async throws {
        // More than the reader's buffer holds: the transfer is held back while the server
        // closes, and the bytes that arrived meanwhile must not be lost with the connection.
        // Whether a hold meets the close depends on how reads fall, so the cut is met often.
        let sent = 600_000
        let (server, closed) = try await RawServer.startCuttingBody(after: sent)
        defer { _Concurrency.Task { await server.stop() } }
        let provider = MoyaProvider<DynamicTarget>()
        var closings = closed.makeAsyncIterator()
        for _ in 0..<8 {
            let streamed = try await provider.stream(DynamicTarget(baseURL: server.baseURL, path: "/"))
            // The reader starts once the server has written everything and closed.
            _ = await closings.next()
            let (received, failure) = await readCounting(streamed)
            #expect(received == sent)
            guard case .underlying(let underlying, _) = failure else {
                Issue.record("expected a transport fault, got \(String(describing: failure))")
                continue
            }
            #expect((underlying as NSError).domain == NSURLErrorDomain)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aServerThatStallsBetweenChunksFailsWithTheIdleTimeout() async throws {
        let server = try await RawServer.start(
            response: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nfirst\r\n",
            ending: .stall
        )
        defer { _Concurrency.Task { await server.stop() } }
        // Long enough for the head to arrive first even under a sanitizer, which slows every step.
        let sanitized = ProcessInfo.processInfo.environment["MOYA_TEST_SANITIZER"] != nil
        let session = Session(configuration: .init(readTimeout: sanitized ? .seconds(5) : .milliseconds(300)))
        let provider = MoyaProvider<DynamicTarget>(session: session)
        let streamed = try await provider.stream(DynamicTarget(baseURL: server.baseURL, path: "/"))
        var chunks: [Data] = []
        do {
            for try await chunk in streamed.chunks {
                chunks.append(chunk)
            }
            Issue.record("a stalled stream ended")
        } catch {
            guard case .underlying(let underlying, _) = error else {
                Issue.record("expected a timeout, got \(error)")
                return
            }
            #expect((underlying as NSError).code == NSURLErrorTimedOut)
        }
        #expect(chunks == [Data("first".utf8)])
    }

    @Test(
        .timeLimit(.minutes(1)),
        .disabled(
            if: ProcessInfo.processInfo.environment["MOYA_TEST_SANITIZER"] != nil,
            "its timings (a reader pausing for three 2-second idle timeouts) are the point, and a sanitizer slows the server past them"
        )
    )
    func aSlowReaderHoldsTheTransferBackWithoutTimingOut() async throws {
        let total = 8 << 20
        try await TestServer.with({ router in
            router.get("large") { _, _ in
                Hummingbird.Response(
                    status: .ok,
                    body: ResponseBody { writer in
                        let chunk = ByteBuffer(repeating: 1, count: 64 << 10)
                        for _ in 0..<(total / chunk.readableBytes) {
                            try await writer.write(chunk)
                        }
                        try await writer.finish(nil)
                    }
                )
            }
        }) { server in
            // An idle timeout far shorter than the reader's pause: only the stopped clock while
            // the reader holds the transfer back keeps the pause from counting as a silent server.
            // (2 seconds: wide enough that a busy machine's pauses in the server's own writes
            // do not count as a silent server.)
            let session = Session(configuration: .init(readTimeout: .seconds(2)))
            let provider = MoyaProvider<DynamicTarget>(session: session)
            let streamed = try await provider.stream(DynamicTarget(baseURL: server.baseURL, path: "/large"))
            var iterator = streamed.chunks.makeAsyncIterator()
            var received = try await iterator.next()?.count ?? 0
            // A reader busy for three idle timeouts, which fills the client's bounded buffer.
            try await _Concurrency.Task.sleep(nanoseconds: 6_000_000_000)
            while let chunk = try await iterator.next() {
                received += chunk.count
            }
            #expect(received == total)
        }
    }
}
