import NIOCore
import Testing

@testable import Moya

/// A transfer's time limits, without a clock, a timer or a lock: the idle timeout, the clock
/// that stops while a stream's reader holds the transfer back, and the whole-request deadline,
/// all on one timer.
@Suite("Idle timeout state machine")
struct IdleTimeoutStateMachineTests {
    typealias Machine = IdleTimeoutWatch.StateMachine

    private let idle = TimeAmount.seconds(10)

    /// A point on a made-up clock, `seconds` after its start.
    private func at(_ seconds: Double) -> NIODeadline {
        .uptimeNanoseconds(UInt64(1_000_000_000 + seconds * 1e9))
    }

    // MARK: Idle

    @Test func theFirstBytesArmTheTimerForOneIdleTimeLater() {
        var machine = Machine(idleTimeout: idle)
        #expect(machine.bytesMoved(at: at(0)) == .scheduleCheck(at: at(10)))
        #expect(machine.timerScheduled() == .keep)
    }

    @Test func laterBytesOnlyNoteTheTimeInsteadOfReschedulingPerChunk() {
        var machine = Machine(idleTimeout: idle)
        _ = machine.bytesMoved(at: at(0))
        #expect(machine.bytesMoved(at: at(1)) == .none)
        #expect(machine.bytesMoved(at: at(2)) == .none)
    }

    @Test func theTimerFailsTheTransferOnlyAfterTheIdleTimeWithoutBytes() {
        var machine = Machine(idleTimeout: idle)
        _ = machine.bytesMoved(at: at(0))
        _ = machine.bytesMoved(at: at(4))
        // Bytes moved at 4: at 10 the transfer was idle for 6 seconds only, so check at 14.
        #expect(machine.timerFired(at: at(10)) == .scheduleCheck(at: at(14)))
        #expect(machine.timerFired(at: at(14)) == .fail(.idle))
        // It fails the transfer once.
        #expect(machine.timerFired(at: at(30)) == .none)
        #expect(machine.finish() == .none)
    }

    @Test func noTimerIsSetBeforeBytesMoveAndAStrayOneChecksNothing() {
        var machine = Machine(idleTimeout: idle, deadline: at(100))
        #expect(machine.timerFired(at: at(5)) == .none)
        #expect(machine.finish() == .none)
        // Waiting for a connection is not idleness: the first bytes start the clock.
        var waited = Machine(idleTimeout: idle)
        #expect(waited.bytesMoved(at: at(30)) == .scheduleCheck(at: at(40)))
    }

    @Test func theTimerNeverFailsOrRearmsAfterTheTransferFinished() {
        var machine = Machine(idleTimeout: idle)
        #expect(machine.finish() == .none)
        #expect(machine.bytesMoved(at: at(0)) == .none)

        var armed = Machine(idleTimeout: idle)
        _ = armed.bytesMoved(at: at(0))
        #expect(armed.finish() == .cancelTimer)
        #expect(armed.bytesMoved(at: at(1)) == .none)
    }

    @Test func aTimerFiringLateAfterTheFinishIsIgnored() {
        var machine = Machine(idleTimeout: idle)
        _ = machine.bytesMoved(at: at(0))
        _ = machine.finish()
        #expect(machine.timerFired(at: at(60)) == .none)
    }

    @Test func aTimerSetWhileTheTransferFinishedIsCancelled() {
        var machine = Machine(idleTimeout: idle)
        _ = machine.bytesMoved(at: at(0))
        // Another thread finished the transfer before this one stored the timer it set.
        _ = machine.finish()
        #expect(machine.timerScheduled() == .cancel)
    }

    @Test func anEndlessIdleTimeoutNeverOverflowsTheClock() {
        var machine = Machine(idleTimeout: .nanoseconds(.max))
        #expect(machine.bytesMoved(at: at(0)) == .scheduleCheck(at: .distantFuture))
        #expect(machine.timerFired(at: at(1e6)) == .scheduleCheck(at: .distantFuture))
    }

    // MARK: Paused by the reader

    @Test func theIdleClockStopsWhileTheReaderHoldsTheTransferBack() {
        var machine = Machine(idleTimeout: idle)
        _ = machine.bytesMoved(at: at(0))
        machine.pause()
        // A slow reader, not a silent server: the timer that fires does nothing, and disarms.
        #expect(machine.timerFired(at: at(10)) == .none)
        // Reading resumes at 100: the clock starts again from there, with a new timer.
        #expect(machine.bytesMoved(at: at(100)) == .scheduleCheck(at: at(110)))
        #expect(machine.timerFired(at: at(110)) == .fail(.idle))
    }

    @Test func resumingBeforeTheTimerFiredKeepsOneTimer() {
        var machine = Machine(idleTimeout: idle)
        _ = machine.bytesMoved(at: at(0))
        machine.pause()
        // Resumed before the timer fired: that timer still runs, no second one is set.
        #expect(machine.bytesMoved(at: at(5)) == .none)
        #expect(machine.timerFired(at: at(10)) == .scheduleCheck(at: at(15)))
        #expect(machine.finish() == .cancelTimer)
        #expect(machine.timerScheduled() == .cancel)
    }

    @Test func aPauseBeforeAnyBytesSetsNoTimerUntilReadingResumes() {
        var machine = Machine(idleTimeout: idle)
        machine.pause()
        #expect(machine.finish() == .none)

        var resumed = Machine(idleTimeout: idle)
        resumed.pause()
        #expect(resumed.bytesMoved(at: at(3)) == .scheduleCheck(at: at(13)))
    }

    @Test func aDisarmedPauseHasNoTimerToCancel() {
        var machine = Machine(idleTimeout: idle)
        _ = machine.bytesMoved(at: at(0))
        machine.pause()
        _ = machine.timerFired(at: at(10))
        #expect(machine.finish() == .none)
    }

    // MARK: Whole-request deadline

    @Test func theFirstBytesSetOneTimerForBothLimits() {
        var machine = Machine(idleTimeout: idle, deadline: at(100))
        // One idle time from the first bytes: the deadline is further.
        #expect(machine.bytesMoved(at: at(0)) == .scheduleCheck(at: at(10)))
        #expect(machine.timerScheduled() == .keep)
        #expect(machine.bytesMoved(at: at(1)) == .none)
        #expect(machine.timerFired(at: at(10)) == .scheduleCheck(at: at(11)))
    }

    @Test func aDeadlineSoonerThanTheIdleTimeIsTheFirstCheck() {
        var machine = Machine(idleTimeout: idle, deadline: at(3))
        #expect(machine.bytesMoved(at: at(0)) == .scheduleCheck(at: at(3)))
        #expect(machine.timerFired(at: at(3)) == .fail(.wholeRequest))
        #expect(machine.timerFired(at: at(40)) == .none)
    }

    @Test func theDeadlineFailsATransferWhoseBytesKeepMoving() {
        var machine = Machine(idleTimeout: idle, deadline: at(15))
        #expect(machine.bytesMoved(at: at(9)) == .scheduleCheck(at: at(15)))
        #expect(machine.bytesMoved(at: at(14)) == .none)
        #expect(machine.timerFired(at: at(15)) == .fail(.wholeRequest))
    }

    @Test func whenBothLimitsHaveRunOutTheOneThatRanOutFirstIsNamed() {
        // Idle since 0 (expired at 10), deadline at 12: a late timer at 20 names the idle limit.
        var idleFirst = Machine(idleTimeout: idle, deadline: at(12))
        _ = idleFirst.bytesMoved(at: at(0))
        #expect(idleFirst.timerFired(at: at(20)) == .fail(.idle))

        // Deadline at 8, idle until 10: the deadline.
        var deadlineFirst = Machine(idleTimeout: idle, deadline: at(8))
        _ = deadlineFirst.bytesMoved(at: at(0))
        #expect(deadlineFirst.timerFired(at: at(20)) == .fail(.wholeRequest))
    }

    @Test func theDeadlineKeepsRunningWhileTheReaderHoldsTheTransferBack() {
        var machine = Machine(idleTimeout: idle, deadline: at(25))
        _ = machine.bytesMoved(at: at(0))
        machine.pause()
        // Paused: no idle failure, but the timer stays set, one idle time ahead at most, so
        // that resuming needs no timer of its own.
        #expect(machine.timerFired(at: at(10)) == .scheduleCheck(at: at(20)))
        #expect(machine.bytesMoved(at: at(12)) == .none)
        machine.pause()
        #expect(machine.timerFired(at: at(20)) == .scheduleCheck(at: at(25)))
        #expect(machine.timerFired(at: at(25)) == .fail(.wholeRequest))
    }
}
