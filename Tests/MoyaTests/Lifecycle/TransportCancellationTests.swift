import Testing

@testable import Moya

/// The one value that cancels an attempt: handlers run once, late ones at once, none twice.
@Suite("Transport cancellation")
struct TransportCancellationTests {
    @Test func handlersRegisteredBeforeTheCancelRunOnceWhenItComes() {
        let cancellation = TransportCancellation()
        let runs = Counter()
        cancellation.onCancel { runs.increment() }
        cancellation.onCancel { runs.increment() }
        #expect(runs.count == 0)
        #expect(!cancellation.isCancelled)
        cancellation.cancel()
        cancellation.cancel()
        #expect(runs.count == 2)
        #expect(cancellation.isCancelled)
    }

    @Test func aHandlerRegisteredAfterTheCancelRunsAtOnce() {
        let cancellation = TransportCancellation()
        cancellation.cancel()
        let runs = Counter()
        cancellation.onCancel { runs.increment() }
        #expect(runs.count == 1)
    }

    @Test func aHandlerMayRegisterAnotherWithoutDeadlocking() {
        let cancellation = TransportCancellation()
        let runs = Counter()
        cancellation.onCancel {
            // Handlers run outside the lock: a new trip of the same attempt registers here.
            cancellation.onCancel { runs.increment() }
        }
        cancellation.cancel()
        #expect(runs.count == 1)
    }

    @Test func cancelsRacingFromManyThreadsRunEachHandlerOnce() async {
        let cancellation = TransportCancellation()
        let runs = Counter()
        for _ in 0..<8 {
            cancellation.onCancel { runs.increment() }
        }
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<16 {
                group.addTask { cancellation.cancel() }
            }
        }
        #expect(runs.count == 8)
    }
}
