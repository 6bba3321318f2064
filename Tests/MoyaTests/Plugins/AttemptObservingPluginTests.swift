import Foundation
import HTTPTypes
import Hummingbird
import LoopbackServer
import NIOConcurrencyHelpers
import NIOCore
import Testing

@testable import Moya

/// An attempt-observing plugin hears each attempt between Moya's own hooks, with the value it
/// started the request with.
@Suite("Attempt-observing plugins")
struct AttemptObservingPluginTests {
    /// Records every hook as a line; its value per request is the request's path.
    private final class Recorder: AttemptObservingPlugin {
        let lines = NIOLockedValueBox<[String]>([])
        /// Yields once `didReceive` ran.
        let received = AsyncStream<Void>.makeStream()

        private func record(_ line: String) {
            lines.withLockedValue { $0.append(line) }
        }

        private static func describe(_ result: Result<Moya.Response, MoyaError>) -> String {
            switch result {
            case .success(let response): return "\(response.statusCode)"
            case .failure(let error): return error.response.map { "\($0.statusCode)" } ?? "failure"
            }
        }

        func prepare(_ request: URLRequest, target: TargetType) -> URLRequest {
            record("prepare")
            return request
        }

        func willSend(_ request: RequestType, target: TargetType) {
            record("willSend")
        }

        func didReceive(_ result: Result<Moya.Response, MoyaError>, target: TargetType) {
            record("didReceive \(Self.describe(result))")
            received.continuation.yield()
        }

        func requestWillStart(_ request: URLRequest, target: TargetType) -> String {
            record("requestWillStart")
            return request.url?.path ?? "-"
        }

        func attemptWillSend(_ attempt: Int, request: inout URLRequest, target: TargetType, observation: String) {
            record("attemptWillSend \(attempt) \(observation)")
            request.setValue("\(attempt)", forHTTPHeaderField: "X-Attempt")
        }

        func attemptDidEnd(
            _ attempt: Int,
            result: Result<Moya.Response, MoyaError>,
            target: TargetType,
            observation: String
        ) {
            record("attemptDidEnd \(attempt) \(Self.describe(result))")
        }

        func requestDidEnd(_ result: Result<Moya.Response, MoyaError>, target: TargetType, observation: String) {
            record("requestDidEnd \(Self.describe(result)) \(observation)")
        }
    }

    /// A route that answers `503` to its first call, then `200` with the `X-Attempt` it got.
    private func flaky(_ router: Router<BasicRequestContext>) {
        let calls = NIOLockedValueBox(0)
        router.get("flaky") { request, _ -> Hummingbird.Response in
            let call = calls.withLockedValue { calls in
                calls += 1
                return calls
            }
            let attempt = HTTPField.Name("X-Attempt").flatMap { request.headers[$0] } ?? "-"
            return Hummingbird.Response(
                status: call == 1 ? .serviceUnavailable : .ok,
                body: .init(byteBuffer: ByteBuffer(string: attempt))
            )
        }
    }

    @Test func eachAttemptIsObservedBetweenMoyasHooksWithTheRequestsValue() async throws {
        let recorder = Recorder()
        try await TestServer.with(flaky) { server in
            let provider = MoyaProvider<DynamicTarget>(
                plugins: [recorder],
                interceptor: RetryPolicy(retryLimit: 2, exponentialBackoffScale: 0.01)
            )
            let response = try await provider.request(DynamicTarget(baseURL: server.baseURL, path: "/flaky"))
            #expect(try response.mapString() == "2", "the second attempt carried what the plugin set on it")
        }
        #expect(
            recorder.lines.withLockedValue { $0 } == [
                "requestWillStart", "prepare", "willSend",
                "attemptWillSend 1 /flaky", "attemptDidEnd 1 503",
                "attemptWillSend 2 /flaky", "attemptDidEnd 2 200",
                "requestDidEnd 200 /flaky", "didReceive 200",
            ]
        )
    }

    @Test func aStreamsAttemptEndsWhenItsReaderIsDone() async throws {
        let recorder = Recorder()
        try await TestServer.with({ router in
            router.get("parts") { _, _ in "all of it" }
        }) { server in
            let provider = MoyaProvider<DynamicTarget>(plugins: [recorder])
            let streamed = try await provider.stream(DynamicTarget(baseURL: server.baseURL, path: "/parts"))
            #expect(recorder.lines.withLockedValue { $0 }.last == "attemptWillSend 1 /parts")
            for try await _ in streamed.chunks {}
            // `didReceive` follows the reader's end on the lifecycle.
            for await _ in recorder.received.stream { break }
        }
        #expect(
            recorder.lines.withLockedValue { $0 } == [
                "requestWillStart", "prepare", "willSend", "attemptWillSend 1 /parts",
                "attemptDidEnd 1 200", "requestDidEnd 200 /parts", "didReceive 200",
            ]
        )
    }

    @Test func aRequestFailingBeforeAnyAttemptEndsItsObservationWithNoAttempt() async throws {
        let recorder = Recorder()
        let provider = MoyaProvider<DynamicTarget>(plugins: [recorder])
        var target = DynamicTarget(baseURL: TestServer.unreachableBaseURL, path: "/")
        target.headers = ["Bad\nName": "x"]
        await #expect(throws: MoyaError.self) { try await provider.request(target) }
        let lines = recorder.lines.withLockedValue { $0 }
        #expect(lines.first == "requestWillStart")
        #expect(!lines.contains { $0.hasPrefix("attempt") })
        #expect(lines.filter { $0.hasPrefix("requestDidEnd failure") }.count == 1)
    }

    @Test func theAttemptStateHandsTheOpenAttemptToTheRequestsEndOnce() {
        var state = AttemptObservations()
        #expect(state.attemptDidEnd() == nil)
        #expect(state.attemptWillSend().number == 1)
        #expect(state.attemptDidEnd()?.number == 1)
        #expect(state.attemptDidEnd() == nil)
        #expect(state.attemptWillSend().number == 2)
        #expect(state.requestDidEnd().openAttempt == 2)
        #expect(state.requestDidEnd().openAttempt == nil)
    }
}
