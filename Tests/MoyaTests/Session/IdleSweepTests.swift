import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import Testing

@testable import Moya

/// The idle sweep on a real event loop: a due check runs, a removed one never does.
@Suite("Idle sweep")
struct IdleSweepTests {
    /// Records which checks ran, and resumes a waiter when the one it waits for has.
    private final class Log: Sendable {
        private typealias Waiter = (name: String, resume: CheckedContinuation<Void, Never>)
        private let state = NIOLockedValueBox<(ran: [String], waiter: Waiter?)>(([], nil))

        var ran: [String] { state.withLockedValue { $0.ran } }

        func record(_ name: String) {
            let resume = state.withLockedValue { state -> CheckedContinuation<Void, Never>? in
                state.ran.append(name)
                guard let waiter = state.waiter, waiter.name == name else { return nil }
                state.waiter = nil
                return waiter.resume
            }
            resume?.resume()
        }

        func wait(for name: String) async {
            await withCheckedContinuation { continuation in
                let ranAlready = state.withLockedValue { state in
                    if state.ran.contains(name) { return true }
                    state.waiter = (name, continuation)
                    return false
                }
                if ranAlready {
                    continuation.resume()
                }
            }
        }
    }

    private struct Check: IdleSweepTarget {
        let name: String
        let log: Log

        func checkDue() {
            log.record(name)
        }
    }

    @Test func aDueCheckRunsAndARemovedEarlierOneNever() async {
        let sweep = IdleSweep(eventLoop: MultiThreadedEventLoopGroup.singleton.next())
        let log = Log()
        let now = NIODeadline.now()
        let removed = sweep.add(Check(name: "removed", log: log), due: now + .milliseconds(20))
        sweep.remove(removed)
        _ = sweep.add(Check(name: "kept", log: log), due: now + .milliseconds(60))
        // The removed check was due first: had it stayed, it would have run by the time the
        // kept one did.
        await log.wait(for: "kept")
        #expect(log.ran == ["kept"])
        #expect(NIODeadline.now() >= now + .milliseconds(60))
    }

    @Test func checksDueAtDifferentTimesEachRunInTheirTurn() async {
        let sweep = IdleSweep(eventLoop: MultiThreadedEventLoopGroup.singleton.next())
        let log = Log()
        let now = NIODeadline.now()
        _ = sweep.add(Check(name: "second", log: log), due: now + .milliseconds(80))
        _ = sweep.add(Check(name: "first", log: log), due: now + .milliseconds(20))
        await log.wait(for: "second")
        #expect(log.ran == ["first", "second"])
    }
}
