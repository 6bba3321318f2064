#if RxMoya
import Foundation
import Moya
import ReactiveTestSupport
import RxMoya
// RxSwift has no Sendable annotations; the tests share nothing mutable outside recorders.
@preconcurrency import RxSwift
import Testing

@Suite("provider.rx.request over stubs", .timeLimit(.minutes(1)))
struct RequestTests {
    @Test func immediateStubSucceedsWithTheResponse() async {
        let recorder = await stubProvider().rx.request(.zen).record()

        #expect(recorder.values.map(\.statusCode) == [200])
        #expect(recorder.values.first?.data == StubAPI.zen.sampleData)
        #expect(recorder.completed)
        #expect(recorder.events.count == 2)
    }

    @Test func delayedStubSucceedsWithTheResponse() async {
        let recorder = await stubProvider(MoyaProvider.delayedStub(0.05)).rx.request(.user).record()

        #expect(recorder.values.map(\.data) == [StubAPI.user.sampleData])
        #expect(recorder.completed)
    }

    @Test func transportErrorFailsWithTheMoyaError() async throws {
        let recorder = await failingStubProvider(code: 42).rx.request(.zen).record()

        #expect(recorder.values.isEmpty)
        guard case .underlying(let error, nil) = try #require(recorder.error as? MoyaError) else {
            Issue.record("expected .underlying, got \(recorder.events)")
            return
        }
        #expect((error as NSError).code == 42)
    }

    @Test func nothingIsSentBeforeSubscription() async {
        let counter = RequestCounter()
        let single = stubProvider(plugins: [counter]).rx.request(.zen)
        await drain(callbackQueue)
        #expect(counter.sentCount == 0)

        _ = await single.record()
        #expect(counter.sentCount == 1)
    }

    @Test func eachSubscriptionSendsItsOwnRequestAndPluginsSeeEach() async {
        let counter = RequestCounter()
        let single = stubProvider(plugins: [counter]).rx.request(.zen)

        let first = await single.record()
        let second = await single.record()

        #expect(first.values.count == 1)
        #expect(second.values.count == 1)
        #expect(counter.sentCount == 2)
        #expect(counter.receivedResults.count == 2)
    }

    @Test func immediateStubWithoutAQueueAnswersInsideSubscribe() {
        let provider = stubProvider(queue: nil)
        var events: [String] = []
        let disposable = provider.rx.request(.zen).subscribe(
            onSuccess: { events.append("success \($0.statusCode)") },
            onFailure: { events.append("failure \($0)") }
        )
        events.append("subscribed")
        disposable.dispose()

        #expect(events == ["success 200", "subscribed"])
    }

    @Test func eventsArriveOnTheProviderCallbackQueue() async {
        let recorder = await stubProvider(MoyaProvider.delayedStub(0.01)).rx.request(.zen).record()

        #expect(recorder.eventQueues == [callbackQueue.label, callbackQueue.label])
    }

    @Test func theCallsQueueWinsOverTheProviders() async {
        let queue = makeMarkedQueue("rx-call-queue")
        let recorder = await stubProvider().rx.request(.zen, callbackQueue: queue).record()

        #expect(recorder.eventQueues == ["rx-call-queue", "rx-call-queue"])
    }

    @Test func observeOnMovesEventsToTheScheduler() async {
        let queue = makeMarkedQueue("rx-observe-on")
        let scheduler = SerialDispatchQueueScheduler(queue: queue, internalSerialQueueName: "rx-observe-on-internal")
        let recorder = await stubProvider().rx.request(.zen).observe(on: scheduler).record()

        #expect(recorder.values.count == 1)
        #expect(recorder.eventQueues == ["rx-observe-on", "rx-observe-on"])
    }

    @Test func disposingCancelsTheStubbedRequestAndNothingFollows() async {
        let counter = RequestCounter()
        let recorder = stubProvider(MoyaProvider.delayedStub(30), plugins: [counter]).rx.request(.zen)
            .startRecording()

        recorder.dispose()
        await counter.waitForResults()
        await drain(callbackQueue)

        guard case .failure(let error) = counter.receivedResults.first else {
            Issue.record("expected the cancelled error, got \(counter.receivedResults)")
            return
        }
        #expect(error.isCancellation)
        #expect(recorder.events.isEmpty)
    }

    @Test func theSingleKeepsTheProviderAliveUntilTheRequestEnds() async {
        weak var weakProvider: MoyaProvider<StubAPI>?
        let single: Single<Moya.Response> = {
            let provider = stubProvider(MoyaProvider.delayedStub(0.01))
            weakProvider = provider
            return provider.rx.request(.zen)
        }()

        // The caller dropped the provider; a released provider would cancel its requests.
        #expect(weakProvider != nil)
        let recorder = await single.record()
        #expect(recorder.values.map(\.statusCode) == [200])
    }
}
#endif
