import Moya
import NIOConcurrencyHelpers

/// Sample responses handed out in order, one per stubbed request; once they run out, the last
/// one answers every further request.
///
/// ```swift
/// let sequence = StubSequence(.networkResponse(503, Data()), .networkResponse(200, Data("ok".utf8)))
/// let provider = MoyaProvider<API>(
///     endpointClosure: { target in
///         MoyaProvider.defaultEndpointMapping(for: target)
///             .replacing(sampleResponseClosure: sequence.sampleResponseClosure)
///     },
///     stubClosure: MoyaProvider.immediatelyStub
/// )
/// ```
///
/// Create the sequence once, outside the endpoint closure: the provider calls that closure for
/// every request.
///
/// - Note: `@unchecked Sendable` because `EndpointSampleResponse` is not `Sendable` (it may hold
///   an `HTTPURLResponse` or an `NSError`). The sequence never mutates the responses it holds,
///   only hands them out, and its one mutable value, the position, is behind a lock.
public final class StubSequence: @unchecked Sendable {
    private let responses: [EndpointSampleResponse]
    private let position = NIOLockedValueBox(0)

    /// Creates a sequence answering `first`, then each of `rest`, then the last one forever.
    public init(_ first: EndpointSampleResponse, _ rest: EndpointSampleResponse...) {
        responses = [first] + rest
    }

    /// Creates a sequence answering `first`, then each of `rest`, then the last one forever.
    public init(_ first: EndpointSampleResponse, _ rest: [EndpointSampleResponse]) {
        responses = [first] + rest
    }

    /// The next response: the following one in order, or the last one once all were given.
    public func next() -> EndpointSampleResponse {
        let index = position.withLockedValue { position in
            defer { position += 1 }
            return min(position, responses.count - 1)
        }
        return responses[index]
    }

    /// How many responses the sequence has given so far.
    public var answered: Int {
        position.withLockedValue { $0 }
    }

    /// A sample response closure that answers with `next()`, for `Endpoint`. It is `@Sendable`,
    /// so it may also be captured by a provider's endpoint closure.
    public var sampleResponseClosure: @Sendable () -> EndpointSampleResponse {
        { self.next() }
    }
}
