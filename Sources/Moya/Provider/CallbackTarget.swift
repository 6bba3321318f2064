import Dispatch

/// Where a request's callbacks (plugins' `didReceive`/`process`, progress, completion) run.
enum CallbackTarget: Sendable {
    /// On a dispatch queue, asynchronously: the callback API.
    case queue(DispatchQueue)
    /// On the main queue, asynchronously, watched by `MainQueueWatchdog`: a program that never
    /// runs the main queue gets a warning instead of silence.
    case main
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

    /// The main queue's label. On Linux `DispatchQueue.main` returns a new wrapper object at
    /// every call, so the main queue is recognised by its label, not by identity.
    private static let mainQueueLabel = DispatchQueue.main.label

    /// The target for a `callbackQueue` argument: `inlineMarker` means inline, the main queue
    /// is watched.
    static func named(_ queue: DispatchQueue) -> CallbackTarget {
        if queue === inlineMarker {
            return .inline
        }
        return queue.label == mainQueueLabel ? .main : .queue(queue)
    }

    /// What `unnamed` means for a request with this stub behaviour; other targets are kept.
    func resolved(for stubBehavior: StubBehavior) -> CallbackTarget {
        guard case .unnamed = self else { return self }
        return stubBehavior == .immediate ? .inline : .main
    }

    func execute(_ work: @escaping @Sendable () -> Void) {
        switch self {
        case .queue(let queue):
            queue.async(execute: work)
        case .inline:
            work()
        case .main, .unnamed:
            MainQueueWatchdog.main.execute(work)
        }
    }

    func isSame(as other: CallbackTarget) -> Bool {
        switch (self, other) {
        case let (.queue(lhs), .queue(rhs)):
            return lhs === rhs
        case (.inline, .inline), (.main, .main), (.unnamed, .unnamed):
            return true
        default:
            return false
        }
    }
}
