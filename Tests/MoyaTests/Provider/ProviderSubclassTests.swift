import Foundation
import NIOConcurrencyHelpers
import Testing

@testable import Moya

/// A subclass's override of `request(_:callbackQueue:progress:completion:)` is the one door
/// every surface goes through, as Moya's `OnlineProvider` example relies on.
@Suite("Provider subclasses", .timeLimit(.minutes(2)))
struct ProviderSubclassTests {
    /// Counts the requests that go through its override.
    final class CountingProvider: MoyaProvider<DynamicTarget>, @unchecked Sendable {
        let calls = NIOLockedValueBox(0)

        override func request(
            _ target: DynamicTarget,
            callbackQueue: DispatchQueue? = .none,
            progress: ProgressBlock? = .none,
            completion: @escaping Completion
        ) -> Cancellable {
            calls.withLockedValue { $0 += 1 }
            return super.request(target, callbackQueue: callbackQueue, progress: progress, completion: completion)
        }
    }

    private let target = DynamicTarget(baseURL: URL(fileURLWithPath: "/"), path: "/zen")

    @Test func theAsyncAPIGoesThroughAnOverriddenRequest() async throws {
        let provider = CountingProvider(stubClosure: MoyaProvider.immediatelyStub)
        let response = try await provider.request(target)
        #expect(response.statusCode == 200)
        #expect(provider.calls.withLockedValue { $0 } == 1)
    }

    @Test func theProgressStreamGoesThroughAnOverriddenRequest() async throws {
        let provider = CountingProvider(stubClosure: MoyaProvider.immediatelyStub)
        var last: ProgressResponse?
        for try await event in provider.requestWithProgress(target) {
            last = event
        }
        #expect(last?.response?.statusCode == 200)
        #expect(provider.calls.withLockedValue { $0 } == 1)
    }

    @Test func theAsyncAPIThroughAnOverrideIsAnsweredAtItsContinuationNotOnTheProvidersQueue() async throws {
        // The provider's queue is marked; the async surface asks for delivery at its
        // continuation, so the plugins' `didReceive` runs on the stub's thread instead.
        let queue = DispatchQueue(label: "provider-queue")
        let key = DispatchSpecificKey<Bool>()
        queue.setSpecific(key: key, value: true)
        let seen = QueueProbe(key: key)
        let provider = CountingProvider(
            stubClosure: MoyaProvider.delayedStub(0.01),
            callbackQueue: queue,
            plugins: [seen]
        )
        let response = try await provider.request(target)
        #expect(response.statusCode == 200)
        #expect(provider.calls.withLockedValue { $0 } == 1)
        #expect(seen.onMarkedQueue.withLockedValue { $0 } == [false])
    }

    @Test func anOverrideThatNamesItsOwnQueueIsAnsweredThereForAsyncCallers() async throws {
        let queue = DispatchQueue(label: "override-queue")
        let key = DispatchSpecificKey<Bool>()
        queue.setSpecific(key: key, value: true)
        let seen = QueueProbe(key: key)
        let provider = QueueChoosingProvider(queue: queue, stubClosure: MoyaProvider.delayedStub(0.01), plugins: [seen])
        _ = try await provider.request(target)
        #expect(seen.onMarkedQueue.withLockedValue { $0 } == [true])
    }

    @Test func aRequestMadeInsideAnAsyncRequestChoosesItsOwnDelivery() async throws {
        // A plugin starts a callback request, naming no queue, while the async request is being
        // made: that request is the callback API's, answered on its provider's queue, not
        // where the outer request is answered.
        let queue = DispatchQueue(label: "inner-provider-queue")
        let key = DispatchSpecificKey<Bool>()
        queue.setSpecific(key: key, value: true)
        let inner = MoyaProvider<DynamicTarget>(stubClosure: MoyaProvider.delayedStub(0.01), callbackQueue: queue)
        let (answers, answered) = AsyncStream<Bool>.makeStream()
        let nested = NestedRequestPlugin(provider: inner, key: key, answered: answered)
        let provider = MoyaProvider<DynamicTarget>(stubClosure: MoyaProvider.immediatelyStub, plugins: [nested])
        _ = try await provider.request(target)
        var iterator = answers.makeAsyncIterator()
        #expect(await iterator.next() == true)
    }
}

/// Records, at each `didReceive`, whether it runs on the queue marked with `key`.
private final class QueueProbe: PluginType, Sendable {
    let key: DispatchSpecificKey<Bool>
    let onMarkedQueue = NIOLockedValueBox<[Bool]>([])

    init(key: DispatchSpecificKey<Bool>) {
        self.key = key
    }

    func didReceive(_ result: Result<Response, MoyaError>, target: TargetType) {
        let marked = DispatchQueue.getSpecific(key: key) ?? false
        onMarkedQueue.withLockedValue { $0.append(marked) }
    }
}

/// Sends every request through `super` with a queue of its own.
///
/// - Note: `@unchecked Sendable` as every `MoyaProvider` subclass must be (the base class is
///   `Sendable`); its one stored property is an immutable queue.
private final class QueueChoosingProvider: MoyaProvider<DynamicTarget>, @unchecked Sendable {
    let queue: DispatchQueue

    init(queue: DispatchQueue, stubClosure: @escaping StubClosure, plugins: [PluginType]) {
        self.queue = queue
        super.init(stubClosure: stubClosure, plugins: plugins)
    }

    override func request(
        _ target: DynamicTarget,
        callbackQueue: DispatchQueue? = .none,
        progress: ProgressBlock? = .none,
        completion: @escaping Completion
    ) -> Cancellable {
        super.request(target, callbackQueue: queue, progress: progress, completion: completion)
    }
}

/// Starts a request of another provider from `prepare`, and reports whether it was answered
/// on the queue marked with `key`.
private struct NestedRequestPlugin: PluginType, Sendable {
    let provider: MoyaProvider<DynamicTarget>
    let key: DispatchSpecificKey<Bool>
    let answered: AsyncStream<Bool>.Continuation

    func prepare(_ request: URLRequest, target: TargetType) -> URLRequest {
        provider.request(DynamicTarget(baseURL: URL(fileURLWithPath: "/"), path: "/inner")) { [key, answered] _ in
            answered.yield(DispatchQueue.getSpecific(key: key) ?? false)
        }
        return request
    }
}
