#if ReactiveMoya
import Foundation
import Moya
@testable import ReactiveMoya
// ReactiveSwift has no Sendable annotations; the tests share nothing mutable outside recorders.
@preconcurrency import ReactiveSwift
import ReactiveTestSupport
import Testing

@Suite("provider.reactive.requestWithProgress", .timeLimit(.minutes(1)))
struct ProgressTests {
    @Test func stubEndsWithOneCompletedEventThenCompletes() async throws {
        let recorder = await stubProvider().reactive.requestWithProgress(.zen).record()

        #expect(recorder.values.filter(\.completed).count == 1)
        #expect(try #require(recorder.values.last).response?.data == StubAPI.zen.sampleData)
        #expect(recorder.completed)
    }

    @Test func errorEndsTheProducerWithTheMoyaError() async {
        let recorder = await failingStubProvider(code: 7).reactive.requestWithProgress(.zen).record()

        #expect(recorder.values.allSatisfy { !$0.completed })
        guard case .underlying(let error, _) = recorder.error else {
            Issue.record("expected .underlying, got \(recorder.events)")
            return
        }
        #expect((error as NSError).code == 7)
    }

    @Test func interruptingCancelsTheRequestAndNothingFollows() async {
        let counter = RequestCounter()
        let recorder = stubProvider(MoyaProvider.delayedStub(30), plugins: [counter]).reactive
            .requestWithProgress(.zen)
            .startRecording()

        recorder.dispose()
        await counter.waitForResults()
        await drain(callbackQueue)

        guard case .failure(let error) = counter.receivedResults.first else {
            Issue.record("expected the cancelled error, got \(counter.receivedResults)")
            return
        }
        #expect(error.isCancellation)
        #expect(recorder.events.count == 1)
        #expect(recorder.interrupted)
    }

    @Test func relayCarriesTheLastProgressAndSendsTheResponseOnce() async {
        let progress = Progress(totalUnitCount: 2)
        progress.completedUnitCount = 1
        let response = Response(statusCode: 200, data: Data())
        let recorder = await SignalProducer<ProgressResponse, MoyaError> { observer, _ in
            let relay = ProgressRelay(observer: observer)
            relay.progress(ProgressResponse(progress: progress))
            relay.progress(ProgressResponse(response: response))
            relay.progress(ProgressResponse(progress: progress))
            relay.end(.success(response))
            relay.end(.failure(.requestMapping("ignored")))
        }
        .record()

        #expect(recorder.values.map { $0.progressObject?.completedUnitCount } == [1, 1])
        #expect(recorder.values.map(\.completed) == [false, true])
        #expect(recorder.completed)
        #expect(recorder.error == nil)
    }

    @Test func relaySendsTheResponseItselfWhenTheProviderDidNot() async {
        let recorder = await SignalProducer<ProgressResponse, MoyaError> { observer, _ in
            ProgressRelay(observer: observer).end(.success(Response(statusCode: 201, data: Data())))
        }
        .record()

        #expect(recorder.values.map { $0.response?.statusCode } == [201])
        #expect(recorder.completed)
    }
}
#endif
