import AsyncHTTPClient
import NIOConcurrencyHelpers
import NIOCore

/// Fails a transfer when no bytes move, either way, for its idle timeout (URLSession's
/// `timeoutInterval`), and, when it is given one, when its whole-request deadline passes.
///
/// AsyncHTTPClient's read timeout counts only bytes read, so a slow upload would not count as
/// activity. Its own deadline (`execute(…deadline:)`) would cost a timer of its own per request,
/// next to this one: one timer enforces both here (`TransferScope` says when). A streamed
/// transfer stops the idle clock while its reader holds it back (`pause()`).
///
/// Runs `StateMachine`'s rules with one check at a time in the transport's `IdleSweep`, which
/// keeps one timer for every watch. Calls come from the event loop and from the threads that
/// read a streamed response or end it, hence the lock. A value around the lock's box, so that a
/// watch costs one allocation, not two. The check's target is two references (`TimerHandler`),
/// which the sweep stores without allocating.
struct IdleTimeoutWatch: Sendable {
    /// The machine and the check it asked for: the bookkeeping the lock guards, apart from any
    /// sweep so that it can be tested alone.
    struct State {
        var machine: StateMachine
        private(set) var timer: IdleSweep.Ticket?
        /// How many timers were set. A timer set from another thread can fire, and set the
        /// next one, before its setter stores it: the stale one must not take the newer one's
        /// place, or the newer one would outlive the transfer.
        private var timersSet: UInt64 = 0

        init(machine: StateMachine) {
            self.machine = machine
        }

        /// What to do outside the lock, and which timer, counted, a `scheduleCheck` sets.
        struct Step {
            let action: StateMachine.Action
            let timer: UInt64
        }

        /// Counts the timer `action` sets, if it sets one.
        mutating func counting(_ action: StateMachine.Action) -> Step {
            if case .scheduleCheck = action {
                timersSet &+= 1
            }
            return Step(action: action, timer: timersSet)
        }

        /// Keeps `timer`, set for `step`, unless a newer one was set since; `.cancel` when the
        /// transfer ended meanwhile.
        mutating func keep(_ timer: IdleSweep.Ticket, setFor step: Step) -> StateMachine.TimerScheduledAction {
            let action = machine.timerScheduled()
            if action == .keep, step.timer == timersSet {
                self.timer = timer
            }
            return action
        }

        /// The timer fired at `now`.
        mutating func timerFired(at now: NIODeadline) -> Step {
            timer = nil
            return counting(machine.timerFired(at: now))
        }

        /// The transfer ended: the check to remove, if one is set.
        mutating func finish() -> IdleSweep.Ticket? {
            defer { timer = nil }
            switch machine.finish() {
            case .none:
                return nil
            case .cancelTimer:
                return timer
            }
        }
    }

    private let state: NIOLockedValueBox<State>
    private let sweep: IdleSweep

    /// - Parameters:
    ///   - sweep: The transport's sweep, which runs the checks.
    ///   - deadline: When the whole request must have finished, for this watch to enforce;
    ///     `nil` when AsyncHTTPClient enforces it, or when there is no limit.
    init(idleTimeout: TimeAmount, deadline: NIODeadline? = nil, sweep: IdleSweep) {
        self.state = NIOLockedValueBox(State(machine: StateMachine(idleTimeout: idleTimeout, deadline: deadline)))
        self.sweep = sweep
    }

    /// Records that bytes moved, or that reading resumed after a pause.
    func bytesMoved(control: some TransferControl) {
        let now = NIODeadline.now()
        perform(state.withLockedValue { $0.counting($0.machine.bytesMoved(at: now)) }, control: control)
    }

    /// The reader holds the transfer back: the idle clock stops until bytes move again.
    func pause() {
        state.withLockedValue { $0.machine.pause() }
    }

    /// The transfer ended: the check goes, and nothing fails it any more.
    func stop() {
        if let ticket = state.withLockedValue({ $0.finish() }) {
            sweep.remove(ticket)
        }
    }

    private func perform<Control: TransferControl>(_ step: State.Step, control: Control) {
        switch step.action {
        case .none:
            break
        case .scheduleCheck(let deadline):
            let ticket = sweep.add(TimerHandler(watch: self, control: control), due: deadline)
            if state.withLockedValue({ $0.keep(ticket, setFor: step) }) == .cancel {
                sweep.remove(ticket)
            }
        case .fail(.idle):
            let idleTimeout = state.withLockedValue { $0.machine.idleTimeout }
            let seconds = Double(idleTimeout.nanoseconds) / 1e9
            control.fail(reason: TransferTimeout(limit: .idle, seconds: seconds).asURLError)
        case .fail(.wholeRequest):
            // AsyncHTTPClient's own error for its deadline, failed the way its timer fails the
            // task: the transport explains it as it always has (`TransferScope.explaining`).
            control.fail(reason: HTTPClientError.deadlineExceeded)
        }
    }

    private func timerFired(_ control: some TransferControl) {
        let now = NIODeadline.now()
        perform(state.withLockedValue { $0.timerFired(at: now) }, control: control)
    }

    /// What the sweep runs when the check is due: the watch and the transfer it fails.
    private struct TimerHandler<Control: TransferControl>: IdleSweepTarget {
        let watch: IdleTimeoutWatch
        let control: Control

        func checkDue() {
            watch.timerFired(control)
        }
    }
}
