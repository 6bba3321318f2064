import Logging
import NIOConcurrencyHelpers

/// The gates of the targets that set resilience policies of their own
/// (`RequestPolicies.resilience`), kept by the session so that every provider using it shares
/// their state, as it shares the session's gate.
///
/// A target's policies are made anew each time the property is read, so the gate is found by
/// the target's type and the policies' numbers (`ResiliencePolicies.Settings`): the cases of a
/// target that give the same numbers share one gate, and so one breaker, limit and budget per
/// key. Two sets that differ only in their closures (`key`, `isFailure`) share the first
/// one's. At most `capacity` gates are kept; past it, the one used least recently is
/// dropped (its requests in flight finish on it), so that policies made from changing numbers
/// cannot grow the session without bound.
final class TargetGates: Sendable {
    struct Key: Hashable {
        let target: ObjectIdentifier
        let settings: ResiliencePolicies.Settings
    }

    private struct Entry {
        let gate: ResilienceGate
        var lastUse: UInt64
    }

    private struct State {
        var gates: [Key: Entry] = [:]
        var uses: UInt64 = 0
        var observers: [ObjectIdentifier: ResilienceGate.WeakObserver] = [:]
    }

    let capacity: Int
    private let logger: Logger?
    private let state = NIOLockedValueBox(State())

    init(logger: Logger?, capacity: Int = 256) {
        self.logger = logger
        self.capacity = max(1, capacity)
    }

    /// How many gates are kept.
    var count: Int { state.withLockedValue { $0.gates.count } }

    /// The gate for `policies` of a target of type `target`; `nil` when they set no policy the
    /// gate runs (the target's requests then pass no gate, the session's included).
    func gate(for policies: ResiliencePolicies, of target: Any.Type) -> ResilienceGate? {
        guard !policies.isEmpty else { return nil }
        let key = Key(target: ObjectIdentifier(target), settings: ResiliencePolicies.Settings(policies))
        return state.withLockedValue { state in
            state.uses &+= 1
            if let entry = state.gates[key] {
                state.gates[key]?.lastUse = state.uses
                return entry.gate
            }
            if state.gates.count >= capacity,
                let oldest = state.gates.min(by: { $0.value.lastUse < $1.value.lastUse })
            {
                state.gates[oldest.key] = nil
            }
            let gate = ResilienceGate(policies: policies, logger: logger, clock: policies.clock)
            for case let observer? in state.observers.values.map(\.observer) {
                gate.addObserver(observer)
            }
            state.gates[key] = Entry(gate: gate, lastUse: state.uses)
            return gate
        }
    }

    /// Hands every later change of a target breaker's state to `observer` too, for the gates
    /// kept now and those made later.
    func addObserver(_ observer: any CircuitStateObserver) {
        let gates = state.withLockedValue { state in
            state.observers = state.observers.filter { $0.value.observer != nil }
            state.observers[ObjectIdentifier(observer)] = ResilienceGate.WeakObserver(observer: observer)
            return state.gates.values.map(\.gate)
        }
        for gate in gates {
            gate.addObserver(observer)
        }
    }
}
