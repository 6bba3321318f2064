import Testing

@testable import Moya

/// The rules of one URLSession transfer's life, alone: the first interruption (a cancel, the
/// deadline, a redirect loop) cancels the task and is what its end reports, and the end is
/// reported exactly once.
@Suite("URLSession transfer: state machine")
struct URLSessionTransferStateMachineTests {
    typealias Machine = URLSessionTransfer.StateMachine

    @Test func aTransferThatRunsToItsEndIsReportedAsURLSessionEndedIt() {
        var machine = Machine()
        #expect(machine.bodyReady() == .resume)
        #expect(machine.taskCompleted() == .asReported)
        #expect(machine.finish() == true)
        #expect(machine.finish() == false, "an end is reported once")
    }

    @Test func aCancelWhileRunningCancelsTheTaskOnceAndItsEndReportsTheCancel() {
        var machine = Machine()
        _ = machine.bodyReady()
        let interrupted1 = machine.interrupt(.cancelled)
        #expect(interrupted1)
        let interrupted2 = machine.interrupt(.cancelled)
        #expect(!interrupted2, "a second cancel does not cancel the task again")
        #expect(machine.isCancelled)
        #expect(machine.taskCompleted() == .interrupted(.cancelled))
        #expect(machine.finish() == true)
    }

    @Test func aCancelAfterTheEndCancelsNothing() {
        var machine = Machine()
        _ = machine.bodyReady()
        _ = machine.taskCompleted()
        _ = machine.finish()
        let interrupted3 = machine.interrupt(.cancelled)
        #expect(!interrupted3)
        #expect(machine.finish() == false)
    }

    @Test func aCancelWhileTheBodyIsPreparedAbandonsTheStartAndReportsTheCancel() {
        var machine = Machine()
        let interrupted4 = machine.interrupt(.cancelled)
        #expect(!interrupted4, "no task to cancel yet")
        #expect(machine.bodyReady() == .abandon(.cancelled))
        #expect(machine.finish() == true)
    }

    @Test func theDeadlineWhileTheBodyIsPreparedAbandonsTheStartWithATimeout() {
        var machine = Machine()
        let cancelsWhilePreparing = machine.interrupt(.timedOut)
        #expect(!cancelsWhilePreparing)
        #expect(machine.bodyReady() == .abandon(.timedOut))
        #expect(machine.finish() == true)
    }

    @Test func onlyTheFirstInterruptionCancelsTheTaskAndItIsWhatTheEndReports() {
        var machine = Machine()
        _ = machine.bodyReady()
        let cancelsTask = machine.interrupt(.timedOut)
        #expect(cancelsTask)
        let cancelsAgain = machine.interrupt(.cancelled)
        #expect(!cancelsAgain)
        #expect(machine.taskCompleted() == .interrupted(.timedOut))
        #expect(machine.finish() == true)
    }

    @Test func aCancelWhileTheEndIsBeingReportedChangesNothing() {
        var machine = Machine()
        _ = machine.bodyReady()
        #expect(machine.taskCompleted() == .asReported)
        let interrupted5 = machine.interrupt(.cancelled)
        #expect(!interrupted5)
        #expect(machine.finish() == true)
    }
}
