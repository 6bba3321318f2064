import CombineMoya
import Foundation
import Moya

#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif

extension DemoSteps {
    /// Concurrent async/await requests, then the same provider through Combine.
    static let asyncCombine = DemoStep(
        name: "async-combine",
        title: "async/await and Combine",
        explanation: """
            The provider is Sendable: share it between tasks and send requests at once with \
            async let. CombineMoya gives the same requests as publishers (OpenCombine on Linux).
            """,
        code: """
            async let user = provider.request(.userProfile("moya"), as: User.self)
            async let zen = provider.request(.zen)
            provider.requestPublisher(.zen, callbackQueue: queue).mapString()
                .sink(receiveCompletion: { ... }, receiveValue: { print($0) })
            """
    ) { context in
        let provider = MoyaProvider<GitHub>()
        async let user = provider.request(.userProfile("moya"), as: User.self)
        async let zen = provider.request(.zen)
        let (decoded, zenResponse) = try await (user, zen)
        context.say("async let: \(decoded.login) and \(zenResponse.statusCode) from /zen, sent together")

        let text = try await DemoSteps.firstValue(
            of: provider.requestPublisher(.zen, callbackQueue: context.callbackQueue).mapString()
        )
        context.say("Combine: \"\(text)\"")
    }

    /// The first value a publisher emits, awaited; the subscription lives until then.
    private static func firstValue<Output: Sendable>(
        of publisher: AnyPublisher<Output, MoyaError>
    ) async throws -> Output {
        var subscription: AnyCancellable?
        defer { subscription?.cancel() }
        return try await withCheckedThrowingContinuation { continuation in
            // A value is followed by the completion: resume on whichever comes first, once.
            var resumed = false
            subscription = publisher.sink(
                receiveCompletion: { completion in
                    guard !resumed else { return }
                    resumed = true
                    switch completion {
                    case .failure(let error):
                        continuation.resume(throwing: error)
                    case .finished:
                        continuation.resume(
                            throwing: MoyaError.requestMapping("The publisher finished without a value.")
                        )
                    }
                },
                receiveValue: { value in
                    guard !resumed else { return }
                    resumed = true
                    continuation.resume(returning: value)
                }
            )
        }
    }
}
