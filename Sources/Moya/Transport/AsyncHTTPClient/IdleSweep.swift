import NIOConcurrencyHelpers
import NIOCore

/// What the sweep calls when a check it was asked for is due.
protocol IdleSweepTarget: Sendable {
    func checkDue()
}

/// One timer for every idle watch of a transport, in place of a timer per transfer.
///
/// A timer per transfer was set when its first bytes moved and cancelled when it ended: two
/// trips through the event loop's timer heap, whose entries are moved one by one, and whose
/// cancellation searches the heap, about 8,000 instructions a request with 32 in flight. Here a
/// watch adds its check to a dictionary and removes it when its transfer ends; the one timer is
/// set for the earliest check (`Schedule`), which with the usual idle timeouts (the same for
/// every request) is set once per timeout, not once per request.
///
/// The timer runs on one event loop of the transport's client; a due check fails its transfer
/// through AsyncHTTPClient's `Task.fail(reason:)`, which hops to the transfer's own loop.
/// Calls come from every event loop and from the threads that read streamed responses, hence
/// the lock; timers are set and cancelled under it, which cannot deadlock: an event loop runs
/// this sweep's callback without holding its own lock.
final class IdleSweep: Sendable {
    /// A check the sweep holds, to remove when the transfer ends.
    struct Ticket: Hashable, Sendable {
        let id: UInt64
    }

    private struct State: Sendable {
        var schedule = Schedule<any IdleSweepTarget>()
        var timer: NIOScheduledCallback?
    }

    private let state = NIOLockedValueBox(State())
    private let eventLoop: any EventLoop

    init(eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    /// Calls `target.checkDue()` at `due`, or soon after, unless `remove` is called first.
    func add(_ target: some IdleSweepTarget, due: NIODeadline) -> Ticket {
        state.withLockedValue { state in
            let (ticket, arm) = state.schedule.add(target, due: due)
            if let arm {
                setTimer(arm, in: &state)
            }
            return ticket
        }
    }

    /// Forgets the check `ticket` stands for.
    func remove(_ ticket: Ticket) {
        state.withLockedValue { $0.schedule.remove(ticket) }
    }

    private func setTimer(_ arm: Schedule<any IdleSweepTarget>.Arm, in state: inout State) {
        state.timer?.cancel()
        // When the event loop is shutting down, which fails the transport's requests itself,
        // no timer is set.
        state.timer = try? eventLoop.scheduleCallback(
            at: arm.due,
            handler: TimerHandler(sweep: self, generation: arm.generation)
        )
    }

    private func timerFired(generation: UInt64) {
        let now = NIODeadline.now()
        let due = state.withLockedValue { state in
            let (due, arm) = state.schedule.fire(at: now, generation: generation)
            if let arm {
                setTimer(arm, in: &state)
            }
            return due
        }
        for target in due {
            target.checkDue()
        }
    }

    /// What the timer runs: the sweep, and which of its timers this is.
    private struct TimerHandler: NIOScheduledCallbackHandler, Sendable {
        let sweep: IdleSweep
        let generation: UInt64

        func handleScheduledCallback(eventLoop: some EventLoop) {
            sweep.timerFired(generation: generation)
        }
    }
}
