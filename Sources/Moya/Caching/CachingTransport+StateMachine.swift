extension CachingTransport {
    /// The life of one request through the cache: cache work (a lookup, a store), then perhaps
    /// the network, then cache work again, then the end. It decides, in one place, what a cancel
    /// does at each moment, so that the completion is called exactly once or, after a cancel,
    /// never, and the canceller hears back once nothing is left running.
    struct StateMachine {
        enum State {
            /// Looking up, deciding or storing.
            case working
            /// Waiting for the base transport, whose handle is known once `send` returned.
            case sending(TransportHandle?)
            /// Cancelled while sending, before the base transport's handle was known.
            case cancelledBeforeHandle
            case cancelled
            case finished
        }

        /// What `cancel` asks of the caller.
        enum CancelAction {
            /// Cancel the base transport; its `then` ends the run.
            case cancelBase(TransportHandle)
            /// The run ends at its next step, or when the base's handle arrives.
            case stopAtNextStep
            /// The run has already ended.
            case alreadyStopped
        }

        private(set) var state = State.working

        /// Before handing the request to the base transport: `false` when cancelled.
        mutating func willSend() -> Bool {
            guard case .working = state else { return false }
            state = .sending(nil)
            return true
        }

        /// The base transport returned its handle: `true` when it must be cancelled at once.
        mutating func sendReturned(_ handle: TransportHandle) -> Bool {
            switch state {
            case .sending(nil):
                state = .sending(handle)
                return false
            case .cancelledBeforeHandle:
                state = .cancelled
                return true
            case .working, .sending, .cancelled, .finished:
                // It already answered (perhaps inside `send`): nothing to cancel.
                return false
            }
        }

        /// The base transport answered: `true` to go on, `false` when the run was cancelled.
        mutating func networkFinished() -> Bool {
            guard case .sending = state else { return false }
            state = .working
            return true
        }

        /// Between two steps of cache work: `true` to go on.
        var mayContinue: Bool {
            if case .working = state { return true }
            return false
        }

        /// At the end: `true` to call the completion, `false` when the run was cancelled.
        mutating func finish() -> Bool {
            guard case .working = state else { return false }
            state = .finished
            return true
        }

        mutating func cancel() -> CancelAction {
            switch state {
            case .working:
                state = .cancelled
                return .stopAtNextStep
            case .sending(let handle?):
                state = .cancelled
                return .cancelBase(handle)
            case .sending(nil):
                state = .cancelledBeforeHandle
                return .stopAtNextStep
            case .cancelledBeforeHandle, .cancelled:
                return .stopAtNextStep
            case .finished:
                return .alreadyStopped
            }
        }
    }
}
