import Dispatch
import Foundation
import Logging
import NIOConcurrencyHelpers

/// Warns, once per process, when callbacks handed to the main queue have not run after a few
/// seconds.
///
/// Completions run on the main queue unless a queue is named, as in Moya. An app runs that
/// queue; a Linux server or command-line tool often does not (a `main.swift` that waits on a
/// semaphore, a Vapor or Hummingbird server), and its completions then never run, silently.
/// This watchdog turns that silence into one warning that names the fixes.
///
/// It costs a lock and two counters per delivery; at most one check is scheduled at a time.
final class MainQueueWatchdog: Sendable {
    /// The watchdog of the main queue, used by `ResultDelivery`.
    static let main = MainQueueWatchdog(queue: .main, delay: .seconds(5), warn: { MainQueueWatchdog.warn($0) })

    /// What a check found, for tests.
    enum Check: Equatable, Sendable {
        /// Everything handed over before the check began has run.
        case progressed
        /// It has not: the warning was given.
        case warned
    }

    private struct State {
        var submitted: UInt64 = 0
        var executed: UInt64 = 0
        var checkScheduled = false
        var warned = false
    }

    private let queue: DispatchQueue
    private let delay: DispatchTimeInterval
    private let warn: @Sendable (String) -> Void
    private let observe: @Sendable (Check) -> Void
    private let state = NIOLockedValueBox(State())

    init(
        queue: DispatchQueue,
        delay: DispatchTimeInterval,
        warn: @escaping @Sendable (String) -> Void,
        observe: @escaping @Sendable (Check) -> Void = { _ in }
    ) {
        self.queue = queue
        self.delay = delay
        self.warn = warn
        self.observe = observe
    }

    /// The warning, naming the three ways out.
    static let message = """
        A completion has waited more than 5 seconds to run on the main queue, and nothing \
        seems to run that queue (a Linux server or command-line tool usually does not). Pass a \
        `callbackQueue:` to the provider or to `request`, use the async/await API \
        (`try await provider.request(target)`), or run the main queue with `dispatchMain()`.
        """

    /// Whether a check is pending: never again once the warning was given.
    var isCheckScheduled: Bool {
        state.withLockedValue { $0.checkScheduled }
    }

    /// Runs `work` on the queue, watching that it does run.
    func execute(_ work: @escaping @Sendable () -> Void) {
        let mark = state.withLockedValue { state -> UInt64? in
            state.submitted += 1
            guard !state.warned, !state.checkScheduled else { return nil }
            state.checkScheduled = true
            return state.submitted
        }
        queue.async { [self] in
            state.withLockedValue { $0.executed += 1 }
            work()
        }
        if let mark {
            scheduleCheck(until: mark)
        }
    }

    /// After the delay, checks that the `mark`-th piece of work has run (the queue is serial,
    /// so all before it have too), and checks again for work handed over since.
    private func scheduleCheck(until mark: UInt64) {
        DispatchQueue.global().asyncAfter(deadline: .now() + delay) { [self] in
            let (check, next) = state.withLockedValue { state -> (Check, UInt64?) in
                guard state.executed >= mark else {
                    state.warned = true
                    state.checkScheduled = false
                    return (.warned, nil)
                }
                guard state.submitted > state.executed else {
                    state.checkScheduled = false
                    return (.progressed, nil)
                }
                return (.progressed, state.submitted)
            }
            if check == .warned {
                warn(Self.message)
            }
            observe(check)
            if let next {
                scheduleCheck(until: next)
            }
        }
    }

    /// Through swift-log only: a program that set up no logging gets swift-log's default
    /// handler, which already prints to standard error, so writing there too printed it twice.
    static func warn(_ message: String, to logger: Logger = Logger(label: "Moya")) {
        logger.warning("\(message)")
    }
}
