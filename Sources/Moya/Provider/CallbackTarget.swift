import Dispatch

/// Where a request's callbacks (plugins' `didReceive`/`process`, progress, completion) run.
enum CallbackTarget: Sendable {
    /// On a dispatch queue, asynchronously: the callback API.
    case queue(DispatchQueue)
    /// On whichever thread produced the result: the async API, whose continuation does its
    /// own scheduling, so a hop here would only cost a context switch.
    case inline

    func execute(_ work: @escaping @Sendable () -> Void) {
        switch self {
        case .queue(let queue):
            queue.async(execute: work)
        case .inline:
            work()
        }
    }

    func isSame(as other: CallbackTarget) -> Bool {
        switch (self, other) {
        case let (.queue(lhs), .queue(rhs)):
            return lhs === rhs
        case (.inline, .inline):
            return true
        default:
            return false
        }
    }
}
