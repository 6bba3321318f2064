#if ReactiveMoya
import Foundation
import Moya
import ReactiveTestSupport
// ReactiveSwift has no Sendable annotations; the tests share nothing mutable outside recorders.
@preconcurrency import ReactiveSwift
import ReactiveMoya
import Testing

@Suite("provider.reactive.request over stubs", .timeLimit(.minutes(1)))
struct RequestTests {
    @Test func immediateStubSucceedsWithTheResponse() async {
        let recorder = await stubProvider().reactive.request(.zen).record()

        #expect(recorder.values.map(\.statusCode) == [200])
        #expect(recorder.values.first?.data == StubAPI.zen.sampleData)
        #expect(recorder.completed)
        #expect(recorder.events.count == 2)
    }

    @Test func delayedStubSucceedsWithTheResponse() async {
        let recorder = await stubProvider(MoyaProvider.delayedStub(0.05)).reactive.request(.user).record()

        #expect(recorder.values.map(\.data) == [StubAPI.user.sampleData])
        #expect(recorder.completed)
    }

    @Test func transportErrorFailsWithTheMoyaError() async throws {
        let recorder = await failingStubProvider(code: 42).reactive.request(.zen).record()

        #expect(recorder.values.isEmpty)
        guard case .underlying(let error, nil) = try #require(recorder.error) else {
            Issue.record("expected .underlying, got \(recorder.events)")
            return
        }
        #expect((error as NSError).code == 42)
    }

    @Test func nothingIsSentBeforeStart() async {
        let counter = RequestCounter()
        let producer = stubProvider(plugins: [counter]).reactive.request(.zen)
        await drain(callbackQueue)
        #expect(counter.sentCount == 0)

        _ = await producer.record()
        #expect(counter.sentCount == 1)
    }

    @Test func eachStartSendsItsOwnRequestAndPluginsSeeEach() async {
        let counter = RequestCounter()
        let producer = stubProvider(plugins: [counter]).reactive.request(.zen)

        let first = await producer.record()
        let second = await producer.record()

        #expect(first.values.count == 1)
        #expect(second.values.count == 1)
        #expect(counter.sentCount == 2)
        #expect(counter.receivedResults.count == 2)
    }

    @Test func immediateStubWithoutAQueueAnswersInsideStart() {
        let provider = stubProvider(queue: nil)
        var events: [String] = []
        provider.reactive.request(.zen).start { event in
            switch event {
            case .value(let response): events.append("value \(response.statusCode)")
            case .completed: events.append("completed")
            case .failed(let error): events.append("failed \(error)")
            case .interrupted: events.append("interrupted")
            }
        }
        events.append("started")

        #expect(events == ["value 200", "completed", "started"])
    }

    @Test func eventsArriveOnTheProviderCallbackQueue() async {
        let recorder = await stubProvider(MoyaProvider.delayedStub(0.01)).reactive.request(.zen).record()

        #expect(recorder.eventQueues == [callbackQueue.label, callbackQueue.label])
    }

    @Test func theCallsQueueWinsOverTheProviders() async {
        let queue = makeMarkedQueue("reactive-call-queue")
        let recorder = await stubProvider().reactive.request(.zen, callbackQueue: queue).record()

        #expect(recorder.eventQueues == ["reactive-call-queue", "reactive-call-queue"])
    }

    @Test func observeOnMovesEventsToTheScheduler() async {
        let queue = makeMarkedQueue("reactive-observe-on")
        let recorder = await stubProvider().reactive.request(.zen).observe(on: QueueScheduler(targeting: queue))
            .record()

        #expect(recorder.values.count == 1)
        #expect(recorder.eventQueues == ["reactive-observe-on", "reactive-observe-on"])
    }

    @Test func interruptingCancelsTheStubbedRequestAndNothingFollows() async {
        let counter = RequestCounter()
        let recorder = stubProvider(MoyaProvider.delayedStub(30), plugins: [counter]).reactive.request(.zen)
            .startRecording()

        recorder.dispose()
        await counter.waitForResults()
        await drain(callbackQueue)

        guard case .failure(let error) = counter.receivedResults.first else {
            Issue.record("expected the cancelled error, got \(counter.receivedResults)")
            return
        }
        #expect(error.isCancellation)
        // Interrupting sends `interrupted`; the cancelled result after it is not passed on.
        #expect(recorder.events.count == 1)
        #expect(recorder.interrupted)
    }

    @Test func theProducerKeepsTheProviderAliveUntilTheRequestEnds() async {
        weak var weakProvider: MoyaProvider<StubAPI>?
        let producer: SignalProducer<Moya.Response, MoyaError> = {
            let provider = stubProvider(MoyaProvider.delayedStub(0.01))
            weakProvider = provider
            return provider.reactive.request(.zen)
        }()

        // The caller dropped the provider; a released provider would cancel its requests.
        #expect(weakProvider != nil)
        let recorder = await producer.record()
        #expect(recorder.values.map(\.statusCode) == [200])
    }
}
#endif
