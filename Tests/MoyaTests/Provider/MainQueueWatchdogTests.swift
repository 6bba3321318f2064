import Dispatch
import Foundation
import Testing

@testable import Moya

/// The warning a program gets when it never runs the queue its completions wait for. A
/// suspended queue stands in for a main queue nothing runs.
@Suite("Warning when nothing runs the main queue", .timeLimit(.minutes(2)))
struct MainQueueWatchdogTests {
    @Test func workThatNeverRunsGivesOneWarningNamingTheThreeFixes() async {
        let queue = DispatchQueue(label: "never-run")
        queue.suspend()
        let (warnings, warningsContinuation) = AsyncStream<String>.makeStream()
        let (ran, ranContinuation) = AsyncStream<Void>.makeStream()
        let watchdog = MainQueueWatchdog(
            queue: queue,
            delay: .milliseconds(20),
            warn: { warningsContinuation.yield($0) }
        )

        watchdog.execute { ranContinuation.yield() }
        var iterator = warnings.makeAsyncIterator()
        let warning = await iterator.next()
        warningsContinuation.finish()
        #expect(warning?.contains("callbackQueue:") == true)
        #expect(warning?.contains("async/await") == true)
        #expect(warning?.contains("dispatchMain()") == true)

        // Once warned, it never schedules another check, however much more waits.
        watchdog.execute {}
        watchdog.execute {}
        #expect(!watchdog.isCheckScheduled)
        queue.resume()
        for await _ in ran { break }
    }

    @Test func aQueueThatRunsItsWorkNeverWarns() async {
        let queue = DispatchQueue(label: "running")
        let (checks, checksContinuation) = AsyncStream<MainQueueWatchdog.Check>.makeStream()
        let watchdog = MainQueueWatchdog(
            queue: queue,
            delay: .milliseconds(20),
            warn: { _ in Issue.record("a running queue must not be warned about") },
            observe: { checksContinuation.yield($0) }
        )
        watchdog.execute {}
        for await check in checks {
            #expect(check == .progressed)
            break
        }
    }

    @Test func theMainQueueIsWatchedWhetherNamedOrTheDefault() {
        // On Linux `DispatchQueue.main` is a new object at every call: identity cannot tell.
        guard case .main = ResultDelivery.named(DispatchQueue.main) else {
            Issue.record("a main queue passed as callbackQueue must be watched")
            return
        }
        guard case .main = ResultDelivery.unnamed.resolved(for: .delayed(seconds: 1)) else {
            Issue.record("the default queue of a request that is not an immediate stub must be the watched main queue")
            return
        }
        guard case .queue = ResultDelivery.named(DispatchQueue(label: "other")) else {
            Issue.record("another queue is used as it is")
            return
        }
    }

    @Test func completionsOnTheMainQueueStillRunThere() async {
        let key = DispatchSpecificKey<String>()
        DispatchQueue.main.setSpecific(key: key, value: "main")
        let provider = MoyaProvider<DynamicTarget>(stubClosure: MoyaProvider.delayedStub(0.01))
        let onMain = await withCheckedContinuation { continuation in
            provider.request(DynamicTarget(baseURL: URL(fileURLWithPath: "/"), path: "/x")) { _ in
                continuation.resume(returning: DispatchQueue.getSpecific(key: key) == "main")
            }
        }
        #expect(onMain)
    }
}
