import Foundation

extension RequestLifecycle {
    /// The rules of one request's life, apart from any I/O so that they can be tested alone.
    ///
    /// A request waits for the `requestClosure`, then sends, then finishes exactly once:
    /// with its result, or with a cancellation. Every subscriber is delivered exactly once:
    /// either with the shared result or, if it cancels first, alone with the cancelled error.
    struct StateMachine {
        enum Phase {
            case awaitingRequest
            case sending(TransportHandle?)
            case finished
        }

        /// - Note: `@unchecked Sendable` because the completion and progress block are the
        ///   caller's, which Moya does not require to be `Sendable`; each runs only on the
        ///   subscriber's callback target (see `UserValue`).
        struct Subscriber: @unchecked Sendable {
            let id: Int
            let callback: CallbackTarget
            let progress: ProgressBlock?
            let completion: Completion
        }

        enum CancelAction {
            /// Nothing to do: unknown subscriber, or already delivered.
            case none
            /// Deliver the cancelled error to this subscriber only; others still wait.
            case detach(Subscriber)
            /// The last subscriber left: the request is over. Cancel the transport if any and
            /// deliver the cancelled error.
            case cancelRequest(Subscriber, TransportHandle?)
        }

        private(set) var phase: Phase = .awaitingRequest
        private var subscribers: [Subscriber] = []
        private var nextID = 0
        private(set) var lastProgress: Progress?

        var isFinished: Bool {
            if case .finished = phase { return true }
            return false
        }

        /// The identifiers of the subscribers still waiting.
        var subscriberIDs: [Int] {
            subscribers.map(\.id)
        }

        /// Adds a subscriber; `nil` once the request has finished (start a new one then).
        mutating func addSubscriber(
            callback: CallbackTarget,
            progress: ProgressBlock?,
            completion: @escaping Completion
        ) -> Int? {
            guard !isFinished else { return nil }
            let id = nextID
            nextID += 1
            subscribers.append(Subscriber(id: id, callback: callback, progress: progress, completion: completion))
            return id
        }

        /// The request is ready: returns whether to send it. `false` when it was cancelled
        /// meanwhile, or when the request closure answered more than once.
        mutating func beginSending() -> Bool {
            guard case .awaitingRequest = phase else { return false }
            phase = .sending(nil)
            return true
        }

        /// Records the transport's handle; returns it back if it must be cancelled at once
        /// because the request was cancelled while the transport was starting.
        mutating func transportStarted(_ handle: TransportHandle) -> TransportHandle? {
            switch phase {
            case .sending(nil):
                phase = .sending(handle)
                return nil
            case .finished:
                return handle
            case .awaitingRequest, .sending(.some):
                return nil
            }
        }

        mutating func cancel(subscriber id: Int) -> CancelAction {
            guard let index = subscribers.firstIndex(where: { $0.id == id }) else { return .none }
            let subscriber = subscribers.remove(at: index)
            guard subscribers.isEmpty else { return .detach(subscriber) }
            var handle: TransportHandle?
            if case .sending(let transport) = phase {
                handle = transport
            }
            phase = .finished
            return .cancelRequest(subscriber, handle)
        }

        /// Finishes the request: returns the subscribers to deliver to, or `[]` if it had
        /// already finished (a late result after a cancel).
        mutating func finish() -> [Subscriber] {
            guard !isFinished else { return [] }
            phase = .finished
            defer { subscribers = [] }
            return subscribers
        }

        /// Whether a subscriber still waiting listens for progress.
        var hasProgressListeners: Bool {
            !isFinished && subscribers.contains { $0.progress != nil }
        }

        /// Records a progress event; returns the subscribers that listen for progress.
        mutating func progress(_ progress: Progress) -> [Subscriber] {
            guard !isFinished else { return [] }
            lastProgress = progress
            return subscribers.filter { $0.progress != nil }
        }

        var completions: [Completion] {
            subscribers.map(\.completion)
        }
    }
}
