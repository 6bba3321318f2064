#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif

extension StreamSubscription {
    /// The rules of a subscription to a stream: it starts on the first demand once the
    /// subscriber holds the subscription (Combine's contract: no value before
    /// `receive(subscription:)` returns, and the first demand is often asked from inside it),
    /// hands each value over only against demand (so a slow subscriber slows the stream), and
    /// ends once. `Waiter` is what the stream's task waits for demand with.
    struct StateMachine<Waiter> {
        private enum State {
            /// `receive(subscription:)` has not returned yet: demand is kept for later.
            case handingOver(demand: Subscribers.Demand)
            case idle(demand: Subscribers.Demand)
            case running(demand: Subscribers.Demand, waiter: Waiter?)
            case finished
        }

        private var state = State.handingOver(demand: .none)

        /// What to do after the subscriber asked for more.
        enum RequestAction {
            case none
            /// The first demand: start the stream.
            case start
            /// The stream waits for demand: let it go on.
            case resume(Waiter)
        }

        mutating func request(_ demand: Subscribers.Demand) -> RequestAction {
            switch state {
            case .handingOver(let current):
                state = .handingOver(demand: current + demand)
                return .none
            case .idle(let current):
                state = .running(demand: current + demand, waiter: nil)
                return demand > .none ? .start : .none
            case .running(let current, let waiter?) where demand > .none:
                state = .running(demand: current + demand - 1, waiter: nil)
                return .resume(waiter)
            case .running(let current, let waiter):
                state = .running(demand: current + demand, waiter: waiter)
                return .none
            case .finished:
                return .none
            }
        }

        /// `receive(subscription:)` returned: a demand asked meanwhile starts the stream now.
        mutating func handedOver() -> RequestAction {
            guard case .handingOver(let demand) = state else { return .none }
            state = .idle(demand: .none)
            return demand > .none ? request(demand) : .none
        }

        /// What the stream does with its next value.
        enum EmitAction {
            /// Send it: demand was there (and is now one less).
            case send
            /// Wait with a waiter until `request` resumes it.
            case wait
            /// The subscription ended: stop.
            case stop
        }

        mutating func emit() -> EmitAction {
            switch state {
            case .running(let demand, nil) where demand > .none:
                state = .running(demand: demand - 1, waiter: nil)
                return .send
            case .running:
                return .wait
            case .handingOver, .idle, .finished:
                return .stop
            }
        }

        /// The stream waits for demand with `waiter`; `false` when it must stop instead, or go on
        /// at once (demand arrived meanwhile), as `emit()` would now say.
        mutating func wait(with waiter: Waiter) -> EmitAction {
            switch state {
            case .running(let demand, nil) where demand > .none:
                state = .running(demand: demand - 1, waiter: nil)
                return .send
            case .running(let demand, _):
                state = .running(demand: demand, waiter: waiter)
                return .wait
            case .handingOver, .idle, .finished:
                return .stop
            }
        }

        /// The subscription ends (cancelled, or the stream completed): returns a waiting stream
        /// to release, and whether this call ended it.
        mutating func finish() -> (waiter: Waiter?, ended: Bool) {
            switch state {
            case .running(_, let waiter):
                state = .finished
                return (waiter, true)
            case .handingOver, .idle:
                state = .finished
                return (nil, true)
            case .finished:
                return (nil, false)
            }
        }
    }
}
