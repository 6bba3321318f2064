import CombineMoya
import Foundation
import Moya
import Testing

#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif

@Suite("requestPublisher")
struct RequestPublisherTests {
    @Test func immediateStubDeliversTheResponseThenFinishes() async throws {
        let recorder = await stubProvider().requestPublisher(.zen).record()

        #expect(recorder.values.map(\.statusCode) == [200])
        #expect(recorder.values.first?.data == StubAPI.zen.sampleData)
        #expect(recorder.endings.count == 1)
        guard case .finished = try #require(recorder.ending) else {
            Issue.record("expected .finished, got \(recorder.endings)")
            return
        }
        #expect(recorder.contractViolations == 0)
    }

    @Test func delayedStubDeliversTheResponseThenFinishes() async {
        let recorder = await stubProvider(MoyaProvider.delayedStub(0.05)).requestPublisher(.user).record()

        #expect(recorder.values.count == 1)
        #expect(recorder.values.first?.data == StubAPI.user.sampleData)
        #expect(recorder.endings.count == 1)
        #expect(recorder.ending?.error == nil)
    }

    @Test func sinkReceivesTheImmediateStubValue() async {
        let provider = stubProvider()
        let bag = CancellableBag()
        let received: (String?, Bool) = await withCheckedContinuation { continuation in
            var value: String?
            bag.keep(
                provider.requestPublisher(.zen).sink(
                    receiveCompletion: { completion in
                        if case .finished = completion {
                            continuation.resume(returning: (value, true))
                        } else {
                            continuation.resume(returning: (value, false))
                        }
                    },
                    receiveValue: { response in value = String(decoding: response.data, as: UTF8.self) }
                )
            )
        }
        #expect(received.0 == "Half measures are as bad as nothing at all.")
        #expect(received.1)
        withExtendedLifetime(bag) {}
    }

    @Test func transportErrorFailsWithTheMoyaError() async throws {
        let recorder = await failingStubProvider(code: 42).requestPublisher(.zen).record()

        #expect(recorder.values.isEmpty)
        guard case .underlying(let error, nil) = try #require(recorder.ending?.error) else {
            Issue.record("expected .underlying, got \(recorder.endings)")
            return
        }
        #expect((error as NSError).code == 42)
    }

    @Test func nothingIsSentBeforeTheSubscriberAsks() async {
        let counter = RequestCounter()
        let provider = stubProvider(plugins: [counter])

        let publisher = provider.requestPublisher(.zen)
        #expect(counter.sentCount == 0)

        let recorder = Recorder<Response>(initialDemand: .none)
        publisher.subscribe(recorder)
        await drain(callbackQueue)
        #expect(counter.sentCount == 0)
        #expect(recorder.values.isEmpty)

        recorder.request(.max(1))
        await recorder.waitForEnding()
        #expect(counter.sentCount == 1)
        #expect(recorder.values.count == 1)
    }

    @Test func eachSubscriptionSendsItsOwnRequest() async {
        let counter = RequestCounter()
        let publisher = stubProvider(plugins: [counter]).requestPublisher(.zen)

        _ = await publisher.record()
        _ = await publisher.record()

        #expect(counter.sentCount == 2)
    }

    @Test func moreDemandAfterTheValueChangesNothing() async {
        let recorder = Recorder<Response>(initialDemand: .max(1))
        stubProvider().requestPublisher(.zen).subscribe(recorder)
        await recorder.waitForEnding()
        recorder.request(.max(5))
        await drain(callbackQueue)

        #expect(recorder.values.count == 1)
        #expect(recorder.endings.count == 1)
    }

    @Test func cancellingBeforeTheResponseCancelsTheRequest() async {
        let counter = RequestCounter()
        let provider = stubProvider(MoyaProvider.delayedStub(30), plugins: [counter])
        let recorder = Recorder<Response>()
        provider.requestPublisher(.zen).subscribe(recorder)
        #expect(counter.sentCount == 1)

        // The provider must see the cancel long before the 30 s stub would answer.
        await cancelAndExpectSilentCancellation(recorder, counter: counter)
    }

    @Test func cancellingBeforeDemandSendsNothing() async {
        let counter = RequestCounter()
        let recorder = Recorder<Response>(initialDemand: .none)
        stubProvider(plugins: [counter]).requestPublisher(.zen).subscribe(recorder)

        recorder.cancel()
        recorder.request(.unlimited)
        await drain(callbackQueue)

        #expect(counter.sentCount == 0)
        #expect(recorder.values.isEmpty)
        #expect(recorder.endings.isEmpty)
    }

    @Test func valuesArriveOnTheNamedCallbackQueue() async {
        let key = DispatchSpecificKey<String>()
        let queue = DispatchQueue(label: "named-callback-queue")
        queue.setSpecific(key: key, value: "named")
        let provider = stubProvider()
        // Many rounds: the stub answers while `subscribe` may still be running on this thread.
        for _ in 0..<200 {
            let recorder =
                await provider
                .requestPublisher(.zen, callbackQueue: queue)
                .map { _ in DispatchQueue.getSpecific(key: key) ?? "elsewhere" }
                .eraseToAnyPublisher()
                .record()
            #expect(recorder.values == ["named"])
        }
    }

    @Test func responseDeliveredInsideRequestComesAfterTheSubscriptionIsHandedOver() async {
        // A provider subclass that completes synchronously, inside `request`, while the
        // subscriber is still in `receive(subscription:)`.
        let provider = SynchronousProvider()
        let recorder = Recorder<Response>()
        provider.requestPublisher(.zen).subscribe(recorder)

        // No waiting needed: everything happened inside `subscribe`.
        #expect(recorder.values.map(\.statusCode) == [200])
        #expect(recorder.endings.count == 1)
        #expect(recorder.ending?.error == nil)
        #expect(recorder.contractViolations == 0)
    }
}

/// A provider that calls its completion before `request` returns.
final class SynchronousProvider: MoyaProvider<StubAPI>, @unchecked Sendable {
    // `@unchecked Sendable` as its superclass: it adds no stored state.
    override func request(
        _ target: StubAPI,
        callbackQueue: DispatchQueue? = .none,
        progress: ProgressBlock? = .none,
        completion: @escaping Completion
    ) -> Moya.Cancellable {
        let response = Response(statusCode: 200, data: target.sampleData)
        progress?(ProgressResponse(response: response))
        completion(.success(response))
        return CancellableToken {}
    }
}

/// Keeps `AnyCancellable`s alive for the duration of a test.
///
/// - Note: `@unchecked Sendable` because `items` is only touched under `lock`.
final class CancellableBag: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [AnyCancellable] = []

    func keep(_ cancellable: AnyCancellable) {
        lock.withLock { items.append(cancellable) }
    }
}
