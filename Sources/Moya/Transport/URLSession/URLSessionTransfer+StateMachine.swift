extension URLSessionTransfer {
    /// The rules of one transfer's life, apart from URLSession, files and locks so that they
    /// can be tested alone: when its task may start, what a cancel or an interruption does to
    /// it, and whether its end is reported.
    ///
    /// URLSession always ends a task with one `didCompleteWithError`, also when the task was
    /// cancelled; the machine decides what that end means. A cancel by the caller wins over
    /// everything: the end is then reported as the cancel, once the transfer has wound down
    /// (its task ended, its files removed).
    struct StateMachine {
        enum Phase: Equatable {
            /// The body is being prepared (a multipart body spooled to a file); no task yet.
            case preparing
            /// The task runs.
            case running
            /// The task ended; the end is being reported (a download moved into place).
            case ending
            /// Reported, and wound down.
            case ended
        }

        /// Why the transfer stopped before URLSession ended it on its own.
        enum Interruption: Equatable {
            /// The caller cancelled: the end reports the cancel.
            case cancelled
            /// The whole-request deadline passed.
            case timedOut
            /// A redirect went past the session's limit, or back to a URL already visited.
            case tooManyRedirects
            /// The response is complete but URLSession holds it back to answer an authentication
            /// challenge itself (Linux): it is reported as received.
            case deliverReceived
            /// Receiving failed on this side (a download's file could not be written).
            case failedLocally
        }

        /// What to do once the body is ready.
        enum StartAction: Equatable {
            case resume
            /// Do not start: the transfer was interrupted while its body was prepared.
            case abandon(Interruption)
        }

        /// What URLSession's end of the task means.
        enum Ending: Equatable {
            /// As URLSession says: the response, or its error.
            case asReported
            case interrupted(Interruption)
        }

        private(set) var phase = Phase.preparing
        private var interruption: Interruption?

        /// Whether the caller cancelled.
        var isCancelled: Bool { interruption == .cancelled }

        /// The body is ready: start the task, unless the transfer was interrupted meanwhile.
        mutating func bodyReady() -> StartAction {
            guard phase == .preparing else { return .abandon(interruption ?? .cancelled) }
            if let interruption {
                phase = .ending
                return .abandon(interruption)
            }
            phase = .running
            return .resume
        }

        /// Something stops the transfer before its end. Returns whether to cancel the task now:
        /// only the first interruption of a running transfer cancels it; an interruption while
        /// the body is prepared is kept for `bodyReady`.
        mutating func interrupt(_ reason: Interruption) -> Bool {
            guard interruption == nil, phase == .preparing || phase == .running else { return false }
            interruption = reason
            return phase == .running
        }

        /// URLSession ended the task: what that end means.
        mutating func taskCompleted() -> Ending {
            guard phase == .running else { return .interrupted(interruption ?? .cancelled) }
            phase = .ending
            return interruption.map { .interrupted($0) } ?? .asReported
        }

        /// The transfer has wound down: whether to report its outcome (exactly once).
        mutating func finish() -> Bool {
            defer { phase = .ended }
            return phase != .ended
        }
    }
}
