import NIOCore
import Testing

@testable import Moya

/// The idle timeout's rules, without a clock, a timer or a lock.
@Suite("Idle timeout state machine")
struct IdleTimeoutStateMachineTests {
    typealias Machine = IdleTimeoutWatch.StateMachine

    private let idle = TimeAmount.seconds(10)

    /// A point on a made-up clock, `seconds` after its start.
    private func at(_ seconds: Double) -> NIODeadline {
        .uptimeNanoseconds(UInt64(1_000_000_000 + seconds * 1e9))
    }

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
        #expect(machine.timerFired(at: at(14)) == .fail)
        // It fails the transfer once.
        #expect(machine.timerFired(at: at(30)) == .none)
        #expect(machine.finish() == .none)
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
}
