import CombineMoya
import Foundation
import Moya
import Testing

#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif

@Suite("requestWithProgressPublisher")
struct ProgressPublisherTests {
    @Test func stubEndsWithTheCompletedResponseThenFinishes() async throws {
        let recorder = await stubProvider().requestWithProgressPublisher(.user).record()

        let last = try #require(recorder.values.last)
        #expect(last.completed)
        #expect(last.progress == 1.0)
        #expect(last.response?.data == StubAPI.user.sampleData)
        #expect(recorder.values.filter(\.completed).count == 1)
        #expect(recorder.endings.count == 1)
        #expect(recorder.ending?.error == nil)
        #expect(recorder.contractViolations == 0)
    }

    @Test func filterCompletedPassesOnlyTheResponse() async {
        let recorder = await stubProvider(MoyaProvider.delayedStub(0.01))
            .requestWithProgressPublisher(.zen)
            .filterCompleted()
            .record()

        #expect(recorder.values.map(\.data) == [StubAPI.zen.sampleData])
        #expect(recorder.ending?.error == nil)
    }

    @Test func filterProgressDropsTheCompletedEvent() async {
        // A stub has no transfer to measure: its only event is the completed one.
        let recorder = await stubProvider().requestWithProgressPublisher(.zen).filterProgress().record()

        #expect(recorder.values.isEmpty)
        #expect(recorder.endings.count == 1)
        #expect(recorder.ending?.error == nil)
    }

    @Test func failedRequestFailsWithoutACompletedEvent() async {
        let recorder = await failingStubProvider(code: 7).requestWithProgressPublisher(.zen).record()

        #expect(recorder.values.allSatisfy { !$0.completed })
        guard case .underlying(let error, _) = recorder.ending?.error else {
            Issue.record("expected .underlying, got \(recorder.endings)")
            return
        }
        #expect((error as NSError).code == 7)
    }

    @Test func completedResponseWaitsForDemand() async throws {
        let recorder = Recorder<ProgressResponse>(initialDemand: .none)
        stubProvider().requestWithProgressPublisher(.zen).subscribe(recorder)
        recorder.request(.max(1))
        await recorder.waitForEnding()

        #expect(recorder.values.count == 1)
        #expect(try #require(recorder.values.first).completed)
    }

    @Test func cancellingCancelsTheRequest() async {
        let counter = RequestCounter()
        let recorder = Recorder<ProgressResponse>()
        stubProvider(MoyaProvider.delayedStub(30), plugins: [counter])
            .requestWithProgressPublisher(.zen)
            .subscribe(recorder)

        await cancelAndExpectSilentCancellation(recorder, counter: counter)
    }
}
