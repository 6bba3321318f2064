import Dispatch

/// Where a request's callbacks (plugins' `didReceive`/`process`, progress, completion) run.
enum CallbackTarget: Sendable {
    /// On a dispatch queue, asynchronously: the callback API.
    case queue(DispatchQueue)
    /// On whichever thread produced the result: the async API, whose continuation does its
    /// own scheduling, so a hop here would only cost a context switch.
    case inline
    /// No queue was named, on the call or the provider: Moya's default. An immediate stub then
    /// answers synchronously, inside `request`, as Moya 15 does (users' unit tests read the
    /// result on the next line); everything else goes to the main queue.
    case unnamed

    /// A queue that never runs anything: the async API passes it as `callbackQueue` to
    /// `request(_:callbackQueue:progress:completion:)`, so that a subclass's override of that
    /// method runs for async calls too (as it does for Combine), while results are still
    /// delivered inline, without a hop.
    static let inlineMarker = DispatchQueue(label: "moya.inline-delivery")

    /// The target for a `callbackQueue` argument: `inlineMarker` means inline.
    static func named(_ queue: DispatchQueue) -> CallbackTarget {
        queue === inlineMarker ? .inline : .queue(queue)
    }

    /// What `unnamed` means for a request with this stub behaviour; other targets are kept.
    func resolved(for stubBehavior: StubBehavior) -> CallbackTarget {
        guard case .unnamed = self else { return self }
        return stubBehavior == .immediate ? .inline : .queue(.main)
    }

    func execute(_ work: @escaping @Sendable () -> Void) {
        switch self {
        case .queue(let queue) where queue === DispatchQueue.main:
            MainQueueWatchdog.main.execute(work)
        case .queue(let queue):
            queue.async(execute: work)
        case .inline:
            work()
        case .unnamed:
            MainQueueWatchdog.main.execute(work)
        }
    }

    func isSame(as other: CallbackTarget) -> Bool {
        switch (self, other) {
        case let (.queue(lhs), .queue(rhs)):
            return lhs === rhs
        case (.inline, .inline), (.unnamed, .unnamed):
            return true
        default:
            return false
        }
    }
}
