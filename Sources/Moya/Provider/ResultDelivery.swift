import Dispatch

/// How a request's results (plugins' `didReceive`/`process`, progress, completion) reach its
/// caller: a named part of every request, chosen by the surface that made it.
enum ResultDelivery: Sendable {
    /// On a dispatch queue, asynchronously: the callback API with a queue.
    case queue(DispatchQueue)
    /// On the main queue, asynchronously, watched by `MainQueueWatchdog`: a program that never
    /// runs the main queue gets a warning instead of silence.
    case main
    /// Synchronously, on the thread that produced the result, for two reasons: the async
    /// surfaces hand it to a continuation or a stream, which does its own scheduling, so a hop
    /// here would only cost a context switch; and an immediate stub with no queue named is
    /// answered inside `request`, as Moya 15 does (users' unit tests read the result on the
    /// next line).
    case inPlace
    /// No queue was named, on the call or the provider: Moya's default. An immediate stub then
    /// answers inline; everything else goes to the main queue.
    case unnamed

    /// The delivery an async surface asks for while it calls the overridable
    /// `request(_:callbackQueue:progress:completion:)` with no queue, so that a subclass's
    /// override runs for it too (as Moya's reactive extensions rely on) while the result still
    /// reaches the continuation without a hop. Bound only for that synchronous call: a
    /// subclass that calls `super` later, from elsewhere, gets the provider's queue or the main
    /// queue, as a callback caller naming no queue would.
    @TaskLocal static var requestedBySurface: ResultDelivery?

    /// The main queue's label. On Linux `DispatchQueue.main` returns a new wrapper object at
    /// every call, so the main queue is recognised by its label, not by identity.
    private static let mainQueueLabel = DispatchQueue.main.label

    /// The delivery for a call of `request(_:callbackQueue:progress:completion:)`: the queue
    /// named on the call, else what the calling surface asked for, else the provider's queue.
    static func forCall(
        queue: DispatchQueue?,
        requestedBySurface requested: ResultDelivery?,
        providerQueue: DispatchQueue?
    ) -> ResultDelivery {
        if let queue {
            return named(queue)
        }
        if let requested {
            return requested
        }
        return providerQueue.map(named) ?? .unnamed
    }

    /// The delivery on `queue`; the main queue is watched.
    static func named(_ queue: DispatchQueue) -> ResultDelivery {
        queue.label == mainQueueLabel ? .main : .queue(queue)
    }

    /// What `unnamed` means for a request with this stub behaviour; other deliveries are kept.
    func resolved(for stubBehavior: StubBehavior) -> ResultDelivery {
        guard case .unnamed = self else { return self }
        return stubBehavior == .immediate ? .inPlace : .main
    }

    /// Whether `execute` runs its work on the calling thread, with no closure to keep.
    var runsInPlace: Bool {
        switch self {
        case .inPlace:
            return true
        case .queue, .main, .unnamed:
            return false
        }
    }

    func execute(_ work: @escaping @Sendable () -> Void) {
        switch self {
        case .queue(let queue):
            queue.async(execute: work)
        case .inPlace:
            work()
        case .main, .unnamed:
            MainQueueWatchdog.main.execute(work)
        }
    }

    func isSame(as other: ResultDelivery) -> Bool {
        switch (self, other) {
        case let (.queue(lhs), .queue(rhs)):
            return lhs === rhs
        case (.inPlace, .inPlace), (.main, .main), (.unnamed, .unnamed):
            return true
        default:
            return false
        }
    }
}
