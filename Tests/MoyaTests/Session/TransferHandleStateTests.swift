import Testing

@testable import Moya

@Suite("Transfer handle state")
struct TransferHandleStateTests {
    @Test func aCancelBeforeTheEndWaitsForItAndSuppressesTheResult() {
        var state = TransferHandle<TransferDelegate.Outcome>.State()
        let calls = Counter()
        let cancel = state.cancel(then: { calls.increment() })
        #expect(!cancel.stoppedAlready)
        let end = state.finish()
        #expect(end.cancelled)
        #expect(end.whenStopped.count == 1)
        for callback in end.whenStopped {
            callback()
        }
        #expect(calls.count == 1)
    }

    @Test func aCancelAfterTheEndIsToldAtOnce() {
        var state = TransferHandle<TransferDelegate.Outcome>.State()
        let end = state.finish()
        #expect(!end.cancelled)
        #expect(end.whenStopped.isEmpty)
        let cancel = state.cancel(then: {})
        #expect(cancel.stoppedAlready)
        #expect(cancel.task == nil)
    }

    @Test func theEndIsReportedToEveryCancellerOnce() {
        var state = TransferHandle<TransferDelegate.Outcome>.State()
        _ = state.cancel(then: {})
        _ = state.cancel(then: {})
        #expect(state.finish().whenStopped.count == 2)
        #expect(state.finish().whenStopped.isEmpty)
    }
}
