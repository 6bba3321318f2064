import Foundation

/// At most `maximumConcurrentRequests` requests in flight to each host (a bulkhead): the rest
/// wait in line, in the order they came, for at most `maximumWait` seconds, or fail at once
/// when `maximumQueueLength` already wait. Cancelling a waiting request takes it out of line.
///
/// A request holds its place for each attempt, from just before it is sent until the
/// transport answered; the wait before a retry holds none.
public struct ConcurrencyLimit: Sendable {
    /// The most requests in flight to one host.
    public var maximumConcurrentRequests: Int
    /// The most requests waiting for a place; one more fails at once.
    public var maximumQueueLength: Int
    /// The longest a request waits for a place, in seconds, before it fails.
    public var maximumWait: TimeInterval

    /// A limit; the defaults let 1,000 requests wait, each at most 10 seconds.
    public init(maximumConcurrentRequests: Int, maximumQueueLength: Int = 1000, maximumWait: TimeInterval = 10) {
        self.maximumConcurrentRequests = max(1, maximumConcurrentRequests)
        self.maximumQueueLength = max(0, maximumQueueLength)
        self.maximumWait = max(0, maximumWait)
    }
}

extension ConcurrencyLimit {
    /// One host's places and line, apart from any continuation or timer: waiters are ids the
    /// caller gives.
    struct StateMachine {
        /// What happens to a request asking for a place.
        enum Acquire: Equatable {
            /// It has one.
            case acquired
            /// It waits in line until `release` or `leave` names it.
            case queued
            /// The line is full: it fails.
            case rejected
        }

        let settings: ConcurrencyLimit
        private(set) var inFlight = 0
        private var line: [Int] = []
        private var lineStart = 0

        init(settings: ConcurrencyLimit) {
            self.settings = settings
        }

        /// Whether nothing is in flight and nobody waits.
        var isIdle: Bool { inFlight == 0 && waiting == 0 }

        /// How many wait in line.
        var waiting: Int { line.count - lineStart }

        /// Request `id` asks for a place.
        mutating func acquire(_ id: Int) -> Acquire {
            if inFlight < settings.maximumConcurrentRequests, waiting == 0 {
                inFlight += 1
                return .acquired
            }
            guard waiting < settings.maximumQueueLength else { return .rejected }
            line.append(id)
            return .queued
        }

        /// A place is given back: the id of the waiter that now has it, if any.
        mutating func release() -> Int? {
            if lineStart < line.count {
                let next = line[lineStart]
                lineStart += 1
                compact()
                return next
            }
            inFlight = max(0, inFlight - 1)
            return nil
        }

        /// Waiter `id` leaves the line (cancelled, or waited too long). `false` when it was not
        /// in line any more: it was given a place meanwhile, which it must give back.
        mutating func leave(_ id: Int) -> Bool {
            guard let index = line[lineStart...].firstIndex(of: id) else { return false }
            line.remove(at: index)
            compact()
            return true
        }

        private mutating func compact() {
            if lineStart > 32, lineStart * 2 > line.count {
                line.removeFirst(lineStart)
                lineStart = 0
            }
        }
    }
}
