import NIOCore
import Testing

@testable import Moya

/// The idle watch's bookkeeping around its machine, without a lock or a real timer: which
/// timer it keeps when a timer set from one thread fires, and sets the next, before that thread
/// stores it, and which one the transfer's end cancels.
@Suite("Idle timeout watch's timer bookkeeping")
struct IdleTimeoutWatchStateTests {
    typealias State = IdleTimeoutWatch.State

    private let idle = TimeAmount.seconds(10)

    private func at(_ seconds: Double) -> NIODeadline {
        .uptimeNanoseconds(UInt64(1_000_000_000 + seconds * 1e9))
    }

    private func timer(_ id: UInt64) -> IdleSweep.Ticket {
        IdleSweep.Ticket(id: id)
    }

    @Test func aTimerStoredAfterANewerOneWasSetIsNotKeptSoTheEndCancelsTheNewerOne() {
        var state = State(machine: .init(idleTimeout: idle))
        // The first timer is set from one thread; it fires on the event loop, which sets the
        // second and stores it, and only then does the first thread come to store the first.
        let first = state.counting(state.machine.bytesMoved(at: at(0)))
        _ = state.machine.bytesMoved(at: at(5))
        let second = state.timerFired(at: at(10))
        #expect(second.action == .scheduleCheck(at: at(15)))
        #expect(state.keep(timer(2), setFor: second) == .keep)
        #expect(state.keep(timer(1), setFor: first) == .keep)
        #expect(state.timer == timer(2))
        #expect(state.finish() == timer(2))
    }

    @Test func aTimerSetWhileTheTransferEndedIsCancelledAtOnceAndALateFiringDoesNothing() {
        var state = State(machine: .init(idleTimeout: idle))
        let step = state.counting(state.machine.bytesMoved(at: at(0)))
        #expect(state.finish() == nil)
        #expect(state.keep(timer(1), setFor: step) == .cancel)
        #expect(state.timer == nil)
        #expect(state.timerFired(at: at(60)).action == .none)
    }

    @Test func theTimerKeptIsTheOneTheEndCancelsAndOnlyOnce() {
        var state = State(machine: .init(idleTimeout: idle))
        let step = state.counting(state.machine.bytesMoved(at: at(0)))
        #expect(state.keep(timer(1), setFor: step) == .keep)
        #expect(state.finish() == timer(1))
        #expect(state.finish() == nil)
    }
}
