import Testing

@testable import Moya

/// Which direction a transfer reports, and how far it got, without `Progress` or locks.
@Suite("Progress state machine")
struct ProgressReporterStateMachineTests {
    typealias Machine = ProgressReporter.StateMachine

    @Test func anUploadTaskReportsItsUploadAgainstTheBodysSize() {
        var machine = Machine(uploadLength: 10)
        #expect(machine.sent(4) == .init(completed: 4, total: 10))
        #expect(machine.sent(6) == .init(completed: 10, total: 10))
        machine.receivedHead(contentLength: 2)
        #expect(machine.received(2) == nil)
    }

    @Test func anyOtherTaskReportsItsDownloadAgainstTheContentLength() {
        var machine = Machine(uploadLength: nil)
        #expect(machine.sent(4) == nil)
        machine.receivedHead(contentLength: 8)
        #expect(machine.received(3) == .init(completed: 3, total: 8))
        #expect(machine.received(5) == .init(completed: 8, total: 8))
    }

    @Test func aDownloadWithoutContentLengthHasAnUnknownTotal() {
        var machine = Machine(uploadLength: nil)
        machine.receivedHead(contentLength: nil)
        #expect(machine.received(3) == .init(completed: 3, total: -1))
    }
}
