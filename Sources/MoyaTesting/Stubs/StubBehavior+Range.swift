import Foundation
import Moya

extension StubBehavior {
    /// A delay drawn at random from `range`, in seconds.
    ///
    /// Negative or infinite bounds never trap: a delay is at least zero, and an unbounded
    /// range collapses to its finite bound.
    public static func delayed(in range: ClosedRange<TimeInterval>) -> StubBehavior {
        let lower = range.lowerBound.isFinite ? max(0, range.lowerBound) : 0
        let upper = range.upperBound.isFinite ? max(lower, range.upperBound) : lower
        return .delayed(seconds: upper > lower ? Double.random(in: lower...upper) : lower)
    }
}

extension MoyaProvider {
    /// Delays every stubbed response by a time drawn from `range`, anew for each request: a
    /// network that is sometimes slower, sometimes faster.
    ///
    /// `MoyaProvider.delayedStub(_:)` gives a fixed delay.
    public static func delayedStub(in range: ClosedRange<TimeInterval>) -> StubClosure {
        { _ in .delayed(in: range) }
    }
}
