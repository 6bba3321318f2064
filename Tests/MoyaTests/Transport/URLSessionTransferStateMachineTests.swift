import Testing

@testable import Moya

/// The rules of one URLSession transfer's life, alone: a cancel wins and is never reported, an
/// interruption is reported once, and whoever cancelled hears once it wound down.
@Suite("URLSession transfer: state machine")
struct URLSessionTransferStateMachineTests {
    typealias Machine = URLSessionTransfer.StateMachine

    @Test func aTransferThatRunsToItsEndIsReportedAsURLSessionEndedIt() {
        var machine = Machine()
        #expect(machine.bodyReady() == .resume)
        #expect(machine.taskCompleted() == .asReported)
        let finish = machine.finish()
        #expect(finish.report)
        #expect(finish.whenStopped.isEmpty)
        #expect(!machine.finish().report)
    }

    @Test func aCancelWhileRunningCancelsTheTaskOnceAndIsNeverReported() {
        var machine = Machine()
        _ = machine.bodyReady()
        let stopped = Counter()
        let first = machine.cancel(then: { stopped.increment() })
        #expect(first.cancelTask && !first.stoppedAlready)
        let second = machine.cancel(then: { stopped.increment() })
        #expect(!second.cancelTask && !second.stoppedAlready)
        #expect(machine.taskCompleted() == .interrupted(.cancelled))
        let finish = machine.finish()
        #expect(!finish.report)
        for callback in finish.whenStopped {
            callback()
        }
        #expect(stopped.count == 2)
    }

    @Test func aCancelAfterTheEndStopsAtOnceAndCancelsNothing() {
        var machine = Machine()
        _ = machine.bodyReady()
        _ = machine.taskCompleted()
        _ = machine.finish()
        let cancel = machine.cancel(then: {})
        #expect(!cancel.cancelTask)
        #expect(cancel.stoppedAlready)
    }

    @Test func aCancelWhileTheBodyIsPreparedAbandonsTheStartAndIsNotReported() {
        var machine = Machine()
        let cancel = machine.cancel(then: {})
        #expect(!cancel.cancelTask)
        #expect(machine.bodyReady() == .abandon(.cancelled))
        #expect(!machine.finish().report)
    }

    @Test func theDeadlineWhileTheBodyIsPreparedAbandonsTheStartWithATimeout() {
        var machine = Machine()
        let cancelsWhilePreparing = machine.interrupt(.timedOut)
        #expect(!cancelsWhilePreparing)
        #expect(machine.bodyReady() == .abandon(.timedOut))
        #expect(machine.finish().report)
    }

    @Test func onlyTheFirstInterruptionCancelsTheTaskAndItIsWhatTheEndReports() {
        var machine = Machine()
        _ = machine.bodyReady()
        let cancelsTask = machine.interrupt(.timedOut)
        #expect(cancelsTask)
        let cancelsAgain = machine.interrupt(.tooManyRedirects)
        #expect(!cancelsAgain)
        #expect(machine.taskCompleted() == .interrupted(.timedOut))
        #expect(machine.finish().report)
    }

    @Test func aCancelAfterAnInterruptionSilencesTheReportWithoutCancellingAgain() {
        var machine = Machine()
        _ = machine.bodyReady()
        let cancelsTask = machine.interrupt(.timedOut)
        #expect(cancelsTask)
        #expect(!machine.cancel(then: {}).cancelTask)
        #expect(machine.taskCompleted() == .interrupted(.cancelled))
        #expect(!machine.finish().report)
    }

    @Test func aCancelWhileTheEndIsBeingReportedSilencesIt() {
        var machine = Machine()
        _ = machine.bodyReady()
        #expect(machine.taskCompleted() == .asReported)
        let cancel = machine.cancel(then: {})
        #expect(!cancel.cancelTask && !cancel.stoppedAlready)
        #expect(!machine.finish().report)
    }
}
