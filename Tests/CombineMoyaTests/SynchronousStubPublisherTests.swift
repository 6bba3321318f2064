import CombineMoya
import Foundation
import Moya
import Testing

#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif

/// An immediate stub with no callback queue answers inside `request`, as in Moya 15; a
/// publisher must still hand over its subscription before the first value (Moya's issue 2071).
@Suite("Publishers over synchronous stubs")
struct SynchronousStubPublisherTests {
    /// Records what it receives, in order, asking for everything from inside
    /// `receive(subscription:)` — where a synchronous answer would arrive too early.
    final class OrderRecorder: Subscriber, @unchecked Sendable {
        typealias Input = Moya.Response
        typealias Failure = MoyaError

        // Used by one thread: everything below happens inside `subscribe`.
        var events: [String] = []
        var insideReceiveSubscription = false

        func receive(subscription: Subscription) {
            insideReceiveSubscription = true
            events.append("subscription")
            subscription.request(.unlimited)
            insideReceiveSubscription = false
        }

        func receive(_ input: Moya.Response) -> Subscribers.Demand {
            events.append(insideReceiveSubscription ? "value too early" : "value \(input.statusCode)")
            return .none
        }

        func receive(completion: Subscribers.Completion<MoyaError>) {
            events.append("finished")
        }
    }

    @Test func theValueArrivesAfterTheSubscriptionWasHandedOverAndBeforeSubscribeReturns() {
        let provider = MoyaProvider<StubAPI>(stubClosure: MoyaProvider.immediatelyStub)
        let recorder = OrderRecorder()
        provider.requestPublisher(.zen).subscribe(recorder)
        #expect(recorder.events == ["subscription", "value 200", "finished"])
    }
}
