extension StreamReport {
    /// When plugins hear that a stream ended: once, after both the provider handed the stream
    /// to its caller (`accept`) and the stream's channel terminated, in either order. An
    /// attempt that is never handed over (refused, or retried) is never reported: its outcome
    /// reaches plugins as the request's.
    struct StateMachine {
        private enum State {
            case open(termination: ChunkChannel.Termination?)
            case accepted(Response)
            case closed
        }

        private var state = State.open(termination: nil)

        /// The stream was handed to its caller with this head; reports at once if it has ended.
        mutating func accept(_ head: Response) -> (Response, ChunkChannel.Termination)? {
            switch state {
            case .open(nil):
                state = .accepted(head)
                return nil
            case .open(let termination?):
                state = .closed
                return (head, termination)
            case .accepted, .closed:
                return nil
            }
        }

        /// The stream's channel terminated; reports at once if the stream was handed over.
        mutating func terminated(_ termination: ChunkChannel.Termination) -> (Response, ChunkChannel.Termination)? {
            switch state {
            case .open(nil):
                state = .open(termination: termination)
                return nil
            case .accepted(let head):
                state = .closed
                return (head, termination)
            case .open, .closed:
                return nil
            }
        }

        /// The attempt was dropped: nothing will be reported.
        mutating func discard() {
            state = .closed
        }
    }
}
