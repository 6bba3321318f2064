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

    @Test func theAsyncAPIStillDeliversWithoutAHopToAnyQueue() async throws {
        // A delayed stub answers on a global queue; the marker queue itself never runs anything.
        let provider = CountingProvider(stubClosure: MoyaProvider.delayedStub(0.01))
        let onMarker = try await withCheckedThrowingContinuation { continuation in
            let key = DispatchSpecificKey<Bool>()
            CallbackTarget.inlineMarker.setSpecific(key: key, value: true)
            _ = provider.request(target, callbackQueue: CallbackTarget.inlineMarker, progress: nil) { _ in
                continuation.resume(returning: DispatchQueue.getSpecific(key: key) ?? false)
            }
        }
        #expect(!onMarker)
    }
}
