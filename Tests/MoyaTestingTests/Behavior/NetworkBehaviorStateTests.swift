import Foundation
import Testing

@testable import MoyaTesting

@Suite("A network behaviour's seeded draws")
struct NetworkBehaviorStateTests {
    private func state(
        seed: UInt64,
        delay: TimeInterval = 1,
        variance: Double = 0.5,
        failurePercent: Double = 10,
        errorPercent: Double = 20
    ) -> NetworkBehaviorState {
        NetworkBehaviorState(
            seed: seed,
            delay: delay,
            variance: variance,
            failurePercent: failurePercent,
            errorPercent: errorPercent
        )
    }

    @Test func splitMix64GivesTheReferenceSequence() {
        // The first outputs of the reference implementation for seed 1234567.
        var generator = SplitMix64(seed: 1_234_567)
        let values = (0..<5).map { _ in generator.next() }
        #expect(
            values == [
                6_457_827_717_110_365_317, 3_203_168_211_198_807_973, 9_817_491_932_198_370_423,
                4_593_380_528_125_082_431, 16_408_922_859_458_223_821,
            ]
        )
    }

    @Test func theSameSeedGivesTheSameDelaysAndOutcomes() {
        var first = state(seed: 42)
        var second = state(seed: 42)
        for _ in 0..<500 {
            #expect(first.nextDelay() == second.nextDelay())
            #expect(first.nextOutcome() == second.nextOutcome())
        }
    }

    @Test func differentSeedsGiveDifferentSequences() {
        var first = state(seed: 1)
        var second = state(seed: 2)
        let firstDelays = (0..<20).map { _ in first.nextDelay() }
        let secondDelays = (0..<20).map { _ in second.nextDelay() }
        let firstOutcomes = (0..<50).map { _ in first.nextOutcome() }
        let secondOutcomes = (0..<50).map { _ in second.nextOutcome() }
        #expect(firstDelays != secondDelays)
        #expect(firstOutcomes != secondOutcomes)
    }

    @Test func delaysStayWithinTheVarianceAroundTheDelay() {
        var draws = state(seed: 7, delay: 0.3, variance: 0.5)
        let delays = (0..<5_000).map { _ in draws.nextDelay() }
        #expect(delays.allSatisfy { (0.15...0.45).contains($0) })
        // Spread over the range, not stuck at one end.
        #expect(delays.contains { $0 < 0.2 })
        #expect(delays.contains { $0 > 0.4 })
    }

    @Test func withoutVarianceEveryDelayIsTheDelay() {
        var draws = state(seed: 7, delay: 0.25, variance: 0)
        #expect((0..<100).allSatisfy { _ in draws.nextDelay() == 0.25 })
    }

    @Test(arguments: [UInt64(0), 42, 9_001, .max])
    func percentagesAreHonouredOverManyDraws(seed: UInt64) {
        var draws = state(seed: seed, failurePercent: 5, errorPercent: 15)
        var counts: [NetworkBehaviorState.Outcome: Int] = [:]
        for _ in 0..<10_000 {
            counts[draws.nextOutcome(), default: 0] += 1
        }
        // Expected 500 and 1 500; the bounds are about five standard deviations wide.
        #expect((390...610).contains(counts[.failure, default: 0]))
        #expect((1_320...1_680).contains(counts[.errorResponse, default: 0]))
        #expect(counts.values.reduce(0, +) == 10_000)
    }

    @Test func zeroAndHundredPercentAreNeverAndAlways() {
        var never = state(seed: 3, failurePercent: 0, errorPercent: 0)
        var always = state(seed: 3, failurePercent: 100, errorPercent: 0)
        var errors = state(seed: 3, failurePercent: 0, errorPercent: 100)
        for _ in 0..<1_000 {
            #expect(never.nextOutcome() == .success)
            #expect(always.nextOutcome() == .failure)
            #expect(errors.nextOutcome() == .errorResponse)
        }
    }

    @Test func settingsOutOfRangeAreBroughtIntoRange() {
        let wild = state(seed: 1, delay: -3, variance: 7, failurePercent: 250, errorPercent: -4)
        #expect(wild.delay == 0)
        #expect(wild.variance == 1)
        #expect(wild.failurePercent == 100)
        #expect(wild.errorPercent == 0)

        let notANumber = state(seed: 1, delay: .nan, variance: .nan, failurePercent: .nan, errorPercent: .infinity)
        #expect(notANumber.delay == 0)
        #expect(notANumber.variance == 0)
        #expect(notANumber.failurePercent == 0)
        #expect(notANumber.errorPercent == 100)
    }

    @Test func percentagesAddingUpToMoreThanHundredLeaveNoSuccess() {
        var draws = state(seed: 11, failurePercent: 60, errorPercent: 60)
        let outcomes = (0..<2_000).map { _ in draws.nextOutcome() }
        #expect(!outcomes.contains(.success))
        #expect(outcomes.contains(.failure))
        #expect(outcomes.contains(.errorResponse))
    }
}
