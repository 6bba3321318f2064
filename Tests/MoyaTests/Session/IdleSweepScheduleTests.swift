import NIOCore
import Testing

@testable import Moya

/// The idle sweep's bookkeeping without a timer: when its one timer is set, which checks a
/// firing takes out, and that a replaced timer does nothing.
@Suite("Idle sweep's schedule")
struct IdleSweepScheduleTests {
    typealias Schedule = IdleSweep.Schedule<String>

    private func at(_ seconds: Double) -> NIODeadline {
        .uptimeNanoseconds(UInt64(1_000_000_000 + seconds * 1e9))
    }

    @Test func theFirstCheckSetsTheTimerAndALaterOneDoesNot() {
        var schedule = Schedule()
        let first = schedule.add("a", due: at(10))
        #expect(first.arm?.due == at(10))
        let later = schedule.add("b", due: at(20))
        #expect(later.arm == nil)
        #expect(first.ticket != later.ticket)
        #expect(schedule.count == 2)
    }

    @Test func anEarlierCheckSetsANewTimerAndTheReplacedOneDoesNothingWhenItFires() {
        var schedule = Schedule()
        let old = schedule.add("late", due: at(10)).arm
        let new = schedule.add("early", due: at(5)).arm
        #expect(new?.due == at(5))
        let stale = schedule.fire(at: at(10), generation: old?.generation ?? 0)
        #expect(stale.due.isEmpty)
        #expect(stale.arm == nil)
        #expect(schedule.count == 2)
    }

    @Test func firingTakesOutTheDueChecksAndSetsTheTimerForTheEarliestLeft() throws {
        var schedule = Schedule()
        let arm = try #require(schedule.add("a", due: at(5)).arm)
        _ = schedule.add("b", due: at(5))
        _ = schedule.add("c", due: at(30))
        _ = schedule.add("d", due: at(20))
        let fired = schedule.fire(at: at(6), generation: arm.generation)
        #expect(fired.due.sorted() == ["a", "b"])
        #expect(fired.arm?.due == at(20))
        #expect(schedule.count == 2)
    }

    @Test func aRemovedCheckNeverFiresAndAnEmptyScheduleSetsNoTimer() throws {
        var schedule = Schedule()
        let added = schedule.add("gone", due: at(5))
        let arm = try #require(added.arm)
        schedule.remove(added.ticket)
        let fired = schedule.fire(at: at(5), generation: arm.generation)
        #expect(fired.due.isEmpty)
        #expect(fired.arm == nil)
        // With no timer set, the next check sets one again.
        #expect(schedule.add("next", due: at(50)).arm?.due == at(50))
    }

    @Test func aTimerWhoseCheckEndedFindsNothingDueAndIsSetForTheNextCheck() throws {
        var schedule = Schedule()
        let first = schedule.add("a", due: at(5))
        let arm = try #require(first.arm)
        _ = schedule.add("b", due: at(8))
        // "a"'s transfer ended before its check: the timer fires at 5, finds nothing due, and
        // is set for "b".
        schedule.remove(first.ticket)
        let fired = schedule.fire(at: at(5), generation: arm.generation)
        #expect(fired.due.isEmpty)
        let next = try #require(fired.arm)
        #expect(next.due == at(8))
        #expect(schedule.fire(at: at(8), generation: next.generation).due == ["b"])
        #expect(schedule.count == 0)
    }
}
