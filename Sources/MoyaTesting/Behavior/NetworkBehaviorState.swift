import Foundation

/// A network behaviour's settings and its two seeded streams of draws: the delay of each
/// request, and what each answer becomes.
///
/// A value type, so that the draw logic can be checked alone; `NetworkBehavior` keeps one behind
/// a lock. The streams are separate because the provider asks for a delay when a request starts
/// and for the answer only when the stub answers (never, for a cancelled request): with one
/// stream, a cancellation would shift every later delay.
struct NetworkBehaviorState: Sendable {
    /// What a stubbed answer becomes.
    enum Outcome: Sendable, Equatable {
        /// The endpoint's own sample response.
        case success

        /// The behaviour's network failure.
        case failure

        /// The behaviour's error response.
        case errorResponse
    }

    /// The mean delay, in seconds: finite and not negative.
    let delay: TimeInterval

    /// How far a delay may stray from `delay`, as a fraction of it: `0...1`.
    let variance: Double

    /// The share of answers that fail, in percent: `0...100`.
    let failurePercent: Double

    /// The share of answers that are the error response, in percent: `0...100`.
    let errorPercent: Double

    private var delays: SplitMix64
    private var outcomes: SplitMix64

    /// Creates the state; out-of-range settings are brought into range rather than trapping,
    /// since they may come from a test's configuration.
    init(seed: UInt64, delay: TimeInterval, variance: Double, failurePercent: Double, errorPercent: Double) {
        self.delay = delay.isFinite ? max(0, delay) : 0
        self.variance = variance.isNaN ? 0 : min(max(0, variance), 1)
        self.failurePercent = Self.percent(failurePercent)
        self.errorPercent = Self.percent(errorPercent)
        // Each stream gets its own seed drawn from the behaviour's, so neither repeats the other.
        var seeds = SplitMix64(seed: seed)
        delays = SplitMix64(seed: seeds.next())
        outcomes = SplitMix64(seed: seeds.next())
    }

    /// The smallest delay a draw can give.
    var minimumDelay: TimeInterval { delay * (1 - variance) }

    /// The largest delay a draw can give.
    var maximumDelay: TimeInterval { delay * (1 + variance) }

    /// The next request's delay, in `minimumDelay...maximumDelay`.
    mutating func nextDelay() -> TimeInterval {
        // Always one draw per request, so the stream's position is the number of requests.
        let unit = delays.nextUnit()
        return minimumDelay + (maximumDelay - minimumDelay) * unit
    }

    /// What the next answer becomes: one draw in `0..<100`, failures first, then error
    /// responses, so each percentage is the share of all answers (and the error percentage is
    /// cut short when the two add up to more than 100).
    mutating func nextOutcome() -> Outcome {
        let roll = outcomes.nextUnit() * 100
        if roll < failurePercent {
            return .failure
        }
        if roll < failurePercent + errorPercent {
            return .errorResponse
        }
        return .success
    }

    private static func percent(_ value: Double) -> Double {
        value.isNaN ? 0 : min(max(0, value), 100)
    }
}
