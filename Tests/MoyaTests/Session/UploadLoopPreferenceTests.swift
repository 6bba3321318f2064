import Foundation
import Hummingbird
import LoopbackServer
import NIOCore
import NIOPosix
import Testing

@testable import Moya

/// An upload alone in flight asks for its client's home loop, so that its delegate and its
/// connection share a thread; uploads that overlap keep spreading over the loops.
@Suite("The event loop of an upload")
struct UploadLoopPreferenceTests {
    typealias State = UploadLoopPreference.State

    @Test func aLoneUploadIsAloneAndAnOverlappingOneIsNot() {
        var state = State()
        let first = state.begin()
        let second = state.begin()
        #expect(first)
        #expect(!second)
        #expect(state.inFlight == 2)
    }

    @Test func onceTheOthersEndTheNextUploadIsAloneAgain() {
        var state = State()
        _ = state.begin()
        _ = state.begin()
        state.end()
        let whileOneIsInFlight = state.begin()
        #expect(!whileOneIsInFlight)
        state.end()
        state.end()
        #expect(state.inFlight == 0)
        let afterAllEnded = state.begin()
        #expect(afterAllEnded)
    }

    @Test func anEndWithoutABeginLeavesTheCountAtZero() {
        var state = State()
        state.end()
        #expect(state.inFlight == 0)
        let next = state.begin()
        #expect(next)
    }

    @Test func theHomeLoopIsOneOfTheGroupsAndGoesOnlyToALoneUpload() throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        defer { try? group.syncShutdownGracefully() }
        let loops = UploadLoopPreference(group: group)
        let home = try #require(loops.home)
        #expect(group.makeIterator().contains { $0 === home })

        let first = loops.choose(bodyLength: 10)
        let overlapping = loops.choose(bodyLength: 10)
        #expect(first.loop === home)
        #expect(overlapping.loop == nil)
        first.end()
        overlapping.end()
        #expect(loops.choose(bodyLength: 10).loop === home)
    }

    @Test func aTripWithoutBytesToSendIsNeitherCountedNorSentToTheHomeLoop() throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        defer { try? group.syncShutdownGracefully() }
        let loops = UploadLoopPreference(group: group)
        let home = try #require(loops.home)
        for length in [nil, Int64(0)] {
            let choice = loops.choose(bodyLength: length)
            #expect(choice.loop == nil)
        }
        // Neither was counted: an upload now is alone.
        let upload = loops.choose(bodyLength: 1)
        #expect(upload.loop === home)
        #expect(loops.choose(bodyLength: 64).loop == nil)
    }

    @Test func aGroupThatDoesNotListItsLoopKeepsEveryUploadIndifferent() {
        // AsyncHTTPClient traps on a delegate loop its client's group does not list.
        let group = UnlistedLoopGroup()
        defer { try? group.syncShutdownGracefully() }
        let loops = UploadLoopPreference(group: group)
        #expect(loops.home == nil)
        let upload = loops.choose(bodyLength: 10)
        #expect(upload.loop == nil)
        upload.end()
        #expect(loops.choose(bodyLength: 10).loop == nil)
    }

    @Test func postsSentOneAtATimeAllRunOnTheSessionsHomeLoop() async throws {
        let (loops, home) = try await postOneAtATime(count: 8, bodySize: 64 << 10)
        #expect(loops.count == 8)
        #expect(loops.allSatisfy { $0 === home })
    }

    // With one loop, every transfer runs on it: nothing to tell apart.
    @Test(.enabled(if: System.coreCount > 1))
    func postsWithAnEmptyBodyKeepSpreadingOverTheLoops() async throws {
        // `.indifferent` takes the group's loops in turn, shared with every other test: 24
        // requests all on the home loop would be a chance of one in millions.
        let (loops, home) = try await postOneAtATime(count: 24, bodySize: 0)
        #expect(loops.count == 24)
        #expect(loops.contains { $0 !== home })
    }

    @Test func streamedPostsSentOneAtATimeAllRunOnTheSessionsHomeLoop() async throws {
        try await TestServer.with(uploadRoute) { server in
            let session = AsyncHTTPClientTransport()
            let url = server.baseURL.appendingPathComponent("upload")
            var loops: [EventLoop?] = []
            for _ in 0..<8 {
                let (loop, answer) = try await openOnce(session, url: url, body: Data(repeating: 7, count: 64 << 10))
                #expect(answer == "\(64 << 10)")
                loops.append(loop)
            }
            let home = try #require(session.route(for: server.baseURL).uploadLoops.home)
            try await session.shutdown()
            #expect(loops.allSatisfy { $0 === home })
        }
    }

    /// Answers a POST with the size of its body.
    private func uploadRoute(_ router: Router<BasicRequestContext>) {
        router.post("upload") { request, _ -> String in
            let body = try await request.body.collect(upTo: 1 << 20)
            return "\(body.readableBytes)"
        }
    }

    /// Opens one streamed POST of `body` through the session's stream transport and reads its
    /// answer; returns the loop its head arrived on (the delegate's) and the answer.
    private func openOnce(
        _ session: AsyncHTTPClientTransport,
        url: URL,
        body: Data
    ) async throws -> (EventLoop?, String) {
        let endpoint = Endpoint(
            url: url.absoluteString,
            sampleResponseClosure: { .networkResponse(200, Data()) },
            method: .post,
            task: .requestData(body),
            httpHeaderFields: nil
        )
        let exchange = TransportExchange(
            request: try endpoint.urlRequest(),
            endpoint: endpoint,
            deadline: nil,
            cancellation: TransportCancellation()
        )
        let (opened, loop) = try await withCheckedThrowingContinuation { continuation in
            let events = StreamEvents(
                head: { result in
                    let loop = MultiThreadedEventLoopGroup.currentEventLoop
                    continuation.resume(with: result.map { ($0, loop) })
                },
                ended: { _ in }
            )
            session.open(exchange, events: events)
        }
        let answer = try await opened.chunks.collect(upTo: 1 << 20)
        return (loop, String(decoding: answer, as: UTF8.self))
    }

    /// Sends `count` POSTs of `bodySize` bytes one after another through a new session, checking
    /// that each arrived whole; returns the loop each was received on, and the session's home loop.
    private func postOneAtATime(
        count: Int,
        bodySize: Int
    ) async throws -> (loops: [EventLoop?], home: EventLoop) {
        try await TestServer.with(uploadRoute) { server in
            let session = AsyncHTTPClientTransport()
            let recorder = LoopRecorder()
            // The async API delivers on the loop that completed the transfer: the delegate's.
            let provider = MoyaProvider<DynamicTarget>(session: Session(transport: session), plugins: [recorder])
            let target = DynamicTarget(
                baseURL: server.baseURL,
                path: "/upload",
                method: .post,
                makeTask: { .requestData(Data(repeating: 7, count: bodySize)) }
            )
            for _ in 0..<count {
                let response = try await provider.request(target)
                #expect(try response.mapString() == "\(bodySize)")
            }
            let home = try #require(session.route(for: server.baseURL).uploadLoops.home)
            try await session.shutdown()
            return (recorder.loops, home)
        }
    }
}

/// Records the event loop each response is received on.
private final class LoopRecorder: PluginType {
    private let recorded = Synchronized<[EventLoop?]>([])

    var loops: [EventLoop?] {
        recorded.update { $0 }
    }

    func didReceive(_ result: Result<Moya.Response, MoyaError>, target: TargetType) {
        let loop = MultiThreadedEventLoopGroup.currentEventLoop
        recorded.update { $0.append(loop) }
    }
}

/// A group that hands out a loop without listing it among its loops.
private final class UnlistedLoopGroup: EventLoopGroup {
    private let inner = MultiThreadedEventLoopGroup(numberOfThreads: 1)

    func next() -> EventLoop {
        inner.next()
    }

    func makeIterator() -> EventLoopIterator {
        EventLoopIterator([])
    }

    func shutdownGracefully(queue: DispatchQueue, _ callback: @escaping @Sendable (Error?) -> Void) {
        inner.shutdownGracefully(queue: queue, callback)
    }
}
