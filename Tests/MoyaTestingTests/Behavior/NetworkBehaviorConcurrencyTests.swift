import Foundation
import Testing

@testable import MoyaTesting

@Suite("A behaviour shared by concurrent requests")
struct NetworkBehaviorConcurrencyTests {
    @Test func concurrentDrawsTakeEachValueOnceAndLoseNone() async {
        let shared = NetworkBehavior(delay: 1, variance: 1, seed: 2_024)
        var sequential = NetworkBehaviorState(seed: 2_024, delay: 1, variance: 1, failurePercent: 0, errorPercent: 0)
        let expected = (0..<4_000).map { _ in sequential.nextDelay() }

        let drawn = await withTaskGroup(of: [TimeInterval].self) { group in
            for _ in 0..<8 {
                group.addTask { (0..<500).map { _ in shared.nextDelay() } }
            }
            return await group.reduce(into: [TimeInterval]()) { $0 += $1 }
        }

        // Under the lock every draw takes the next value: together they are the sequence.
        #expect(drawn.sorted() == expected.sorted())
    }
}
