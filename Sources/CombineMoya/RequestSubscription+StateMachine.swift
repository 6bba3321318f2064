import Moya

#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif

extension RequestSubscription {
    /// The rules of one subscription, apart from any thread or lock so that they can be tested
    /// alone: when the request starts, what the subscriber may be sent next, and which thread
    /// sends it.
    ///
    /// One thread at a time holds the *delivery role* and passes events to the subscriber;
    /// every other thread records its event and returns. Nothing waits: an event that arrives
    /// while the subscriber is still in `receive(subscription:)` is recorded, and delivered once
    /// the hand-over has ended.
    struct StateMachine {
        /// What the delivering thread passes on next.
        enum Step {
            /// Nothing can go now: the delivery role is given up.
            case idle
            /// A value, for which one unit of demand was used.
            case value(Output)
            /// The completion: `nil` for `.finished`. The subscriber hears nothing after it.
            case completion(MoyaError?)
        }

        /// What `request(_:)` asks the caller to do.
        struct DemandAction: Equatable {
            /// Start the request: the first demand.
            var start = false
            /// Take the delivery role and deliver.
            var deliver = false
        }

        /// The subscriber is still in `receive(subscription:)`.
        private(set) var isHandingOver = true
        private var started = false
        private var demand: Subscribers.Demand = .none
        /// A value waiting for demand; a newer one replaces it, but never a final one.
        private var pending: Output?
        private var receivedFinalValue = false
        /// The end of the request, once known: `.some(nil)` is success.
        private var end: MoyaError??
        /// Cancelled, or sent its completion: the subscriber hears nothing more.
        private(set) var isTerminated = false
        /// The subscriber cancelled.
        private(set) var wasCancelled = false
        private var delivering = false

        /// `receive(subscription:)` returned: whether the caller takes the delivery role for
        /// what arrived meanwhile.
        mutating func handOverEnded() -> Bool {
            isHandingOver = false
            return claimDelivery()
        }

        /// The subscriber asked for more.
        mutating func request(_ more: Subscribers.Demand) -> DemandAction {
            guard more > .none, !isTerminated else { return DemandAction() }
            demand += more
            let start = !started
            started = true
            return DemandAction(start: start, deliver: claimDelivery())
        }

        /// A value of the request: whether the caller takes the delivery role.
        mutating func receive(_ value: Output, isFinal: Bool) -> Bool {
            guard !isTerminated, end == nil, !receivedFinalValue else { return false }
            pending = value
            receivedFinalValue = isFinal
            return claimDelivery()
        }

        /// The end of the request: whether the caller takes the delivery role. Only the first
        /// end counts; a failure drops a value still waiting for demand.
        mutating func receiveEnd(_ error: MoyaError?) -> Bool {
            guard !isTerminated, end == nil else { return false }
            end = .some(error)
            if error != nil {
                pending = nil
            }
            return claimDelivery()
        }

        /// The subscriber cancelled: whether the running request must be cancelled (it started
        /// and has not ended).
        mutating func cancel() -> Bool {
            guard !isTerminated else { return false }
            isTerminated = true
            wasCancelled = true
            pending = nil
            return started && end == nil
        }

        /// Whether the request must still be kept, to cancel it later.
        var keepsRequest: Bool {
            !isTerminated && end == nil
        }

        /// What the thread holding the delivery role sends next; gives the role up on `.idle`.
        mutating func nextStep() -> Step {
            guard !isTerminated else {
                delivering = false
                return .idle
            }
            if let value = pending, demand > .none {
                pending = nil
                demand -= 1
                return .value(value)
            }
            if pending == nil, let end {
                // The delivery role is never given up again: nothing may follow.
                isTerminated = true
                return .completion(end)
            }
            delivering = false
            return .idle
        }

        /// The subscriber returned more demand from `receive(_:)`.
        mutating func addDemand(_ more: Subscribers.Demand) {
            guard more > .none else { return }
            demand += more
        }

        /// Takes the delivery role when there is something to deliver, no thread holds it, and
        /// the hand-over has ended.
        private mutating func claimDelivery() -> Bool {
            guard !isHandingOver, !delivering, hasSomethingToDeliver else { return false }
            delivering = true
            return true
        }

        private var hasSomethingToDeliver: Bool {
            guard !isTerminated else { return false }
            if pending != nil {
                return demand > .none
            }
            return end != nil
        }
    }
}
