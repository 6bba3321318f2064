import CombineMoya
import Foundation
import Moya
import Testing

#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif

@Suite("A Swift 6 user's Combine code")
struct CombineUserTests {
    /// Subscribes and waits for the single value or the failure.
    private func firstStatusCode(_ publisher: AnyPublisher<Moya.Response, MoyaError>) async -> Int? {
        let box = SubscriptionBox()
        let statusCode: Int? = await withCheckedContinuation { continuation in
            box.cancellable = publisher.sink(
                receiveCompletion: { completion in
                    if case .failure = completion { continuation.resume(returning: nil) }
                },
                receiveValue: { response in continuation.resume(returning: response.statusCode) }
            )
        }
        withExtendedLifetime(box) {}
        return statusCode
    }

    @MainActor
    @Test func publisherFromTheMainActor() async {
        let provider = MoyaProvider<PublicAPI>(stubClosure: MoyaProvider.immediatelyStub)
        let statusCode = await firstStatusCode(provider.requestPublisher(.zen).filterSuccessfulStatusCodes())
        #expect(statusCode == 200)
    }

    @Test func publisherFromADetachedTask() async {
        let provider = MoyaProvider<InternalAPI>(stubClosure: MoyaProvider.immediatelyStub)
        let statusCode = await _Concurrency.Task.detached {
            await firstStatusCode(
                provider.requestPublisher(.search(query: "swift"), callbackQueue: DispatchQueue(label: "user"))
            )
        }.value
        #expect(statusCode == 200)
    }
}

/// Keeps a subscription alive until its value arrives.
private final class SubscriptionBox: @unchecked Sendable {
    // Written once, before the publisher can deliver, and only released with the box.
    var cancellable: AnyCancellable?
}
