import Foundation
import Moya
import NIOConcurrencyHelpers

/// A stubbed network that behaves like one: answers come after a delay that varies, some fail
/// as a dropped connection does, some are a server's error response, the rest are the
/// endpoint's sample response — all drawn from a seed, so a failing run can be replayed.
///
/// Create one behaviour per provider (or per kind of target), outside the provider's closures,
/// and give the provider its closures:
///
/// ```swift
/// let behavior = NetworkBehavior(delay: 0.3, variance: 0.5, failurePercent: 5, errorPercent: 5, seed: 42)
/// let provider = MoyaProvider<GitHub>(
///     endpointClosure: behavior.endpointClosure(),
///     stubClosure: behavior.stubClosure()
/// )
/// ```
///
/// or `MoyaProvider<GitHub>(networkBehavior: behavior)`.
///
/// Each request draws its delay when it starts (in `stubClosure`) and its outcome when the stub
/// answers (in the endpoint's sample response), each from its own seeded sequence under a lock.
/// Sequential requests therefore see the same delays and outcomes on every run with the same
/// seed; concurrent requests share the sequence in the order they reach it. A cancelled delayed
/// request never answers, so it draws no outcome. A request that is retried draws an outcome
/// for each attempt, as a flaky network answers each one anew. Sample streams (an endpoint's
/// `replacing(sampleStream:)`, a recorded stream) play as they are, after the drawn delay.
///
/// Without a seed, one is drawn from the system generator; ``seed`` reports it, so a test can
/// print it when it fails and be run again with it.
public final class NetworkBehavior: Sendable {
    /// The mean delay before a stub answers, in seconds.
    public var delay: TimeInterval { settings.delay }

    /// How far a delay strays from ``delay`` at most, as a fraction of it (`0...1`): delays are
    /// drawn evenly from `delay * (1 - variance)` to `delay * (1 + variance)`.
    public var variance: Double { settings.variance }

    /// The share of requests that fail with ``failure``, in percent (`0...100`).
    public var failurePercent: Double { settings.failurePercent }

    /// The share of requests answered with ``errorResponse``, in percent (`0...100`).
    public var errorPercent: Double { settings.errorPercent }

    /// The network failure a failing request reports, as `MoyaError.underlying` with an
    /// `NSError` in `NSURLErrorDomain`: what the network path reports.
    public let failure: URLError

    /// The response an error draw answers with.
    public let errorResponse: ErrorResponse

    /// The seed the draws come from: the one given, or the one drawn at creation.
    public let seed: UInt64

    /// The settings as given, brought into range; never drawn from, so read without the lock.
    private let settings: NetworkBehaviorState

    /// The sequences every request draws from.
    private let state: NIOLockedValueBox<NetworkBehaviorState>

    /// Creates a behaviour.
    ///
    /// Values out of range are brought into it rather than trapping: a negative or infinite
    /// delay is 0, a variance is kept to `0...1`, percentages to `0...100`. When the two
    /// percentages add up to more than 100, failures take their share first.
    ///
    /// - Parameters:
    ///   - delay: The mean delay before a stub answers, in seconds. Defaults to 0 (at once).
    ///   - variance: How far a delay may stray from `delay`, as a fraction of it: 0.5 gives
    ///     delays from half to one and a half times `delay`. Defaults to 0.
    ///   - failurePercent: The share of requests that fail with `failure`, in percent.
    ///   - failure: The network failure they report. Defaults to a dropped connection.
    ///   - errorPercent: The share of requests answered with `errorResponse`, in percent.
    ///   - errorResponse: The error response. Defaults to a 500 with an empty body.
    ///   - seed: The seed of the draws; `nil` draws one from the system generator.
    public init(
        delay: TimeInterval = 0,
        variance: Double = 0,
        failurePercent: Double = 0,
        failure: URLError = URLError(.networkConnectionLost),
        errorPercent: Double = 0,
        errorResponse: ErrorResponse = ErrorResponse(),
        seed: UInt64? = nil
    ) {
        let seed = seed ?? UInt64.random(in: .min ... .max)
        let state = NetworkBehaviorState(
            seed: seed,
            delay: delay,
            variance: variance,
            failurePercent: failurePercent,
            errorPercent: errorPercent
        )
        self.failure = failure
        self.errorResponse = errorResponse
        self.seed = seed
        self.settings = state
        self.state = NIOLockedValueBox(state)
    }

    /// The next request's delay, drawn under the lock.
    func nextDelay() -> TimeInterval {
        state.withLockedValue { $0.nextDelay() }
    }

    /// What the next answer becomes, drawn under the lock.
    func nextOutcome() -> NetworkBehaviorState.Outcome {
        state.withLockedValue { $0.nextOutcome() }
    }

    /// The next request's stub behaviour: its drawn delay, or `.immediate` for none.
    func nextStubBehavior() -> StubBehavior {
        let seconds = nextDelay()
        return seconds > 0 ? .delayed(seconds: seconds) : .immediate
    }
}
