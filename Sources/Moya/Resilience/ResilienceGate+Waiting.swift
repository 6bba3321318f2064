import Dispatch
import Foundation

extension ResilienceGate {
    /// The requests waiting for a place of a concurrency limit, by waiter id: each is given its
    /// place, cancelled, or timed out exactly once, whichever comes first, even when that comes
    /// before it started waiting.
    struct Line {
        enum Outcome {
            case placed
            case failed(MoyaError)
        }

        private var waiting: [Int: CheckedContinuation<Void, any Error>] = [:]
        /// Outcomes that came before their waiter suspended.
        private var early: [Int: Outcome] = [:]

        /// Waiter `id` suspends with `continuation`: the outcome it is resumed with now, if
        /// one came first.
        mutating func suspend(_ id: Int, _ continuation: CheckedContinuation<Void, any Error>) -> Outcome? {
            if let outcome = early.removeValue(forKey: id) {
                return outcome
            }
            waiting[id] = continuation
            return nil
        }

        /// Forgets an outcome waiter `id` will never suspend for.
        mutating func discard(_ id: Int) {
            early[id] = nil
        }

        /// Waiter `id`'s outcome is known: the continuation to resume with it, or `nil` when
        /// the waiter has not suspended yet (it will find the outcome when it does).
        mutating func settle(_ id: Int, _ outcome: Outcome) -> CheckedContinuation<Void, any Error>? {
            if let continuation = waiting.removeValue(forKey: id) {
                return continuation
            }
            early[id] = outcome
            return nil
        }
    }

    /// Waits in `key`'s line until a place is given, the task is cancelled, or the limit's
    /// `maximumWait` passes; leaving the line on either of the last two.
    func waitForPlace(key: String, waiter id: Int, url: URL?) async throws {
        let maximumWait = policies.concurrencyLimit?.maximumWait ?? 0
        let timer = DispatchWorkItem { [self] in
            leaveLine(
                key: key,
                waiter: id,
                with: .underlying(
                    MoyaClientError.concurrencyLimitReached(
                        key: key,
                        url: url,
                        reason: "it waited \(maximumWait) seconds, the limit's maximum wait"
                    ),
                    nil
                )
            )
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + maximumWait, execute: timer)
        defer { timer.cancel() }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                switch line.withLockedValue({ $0.suspend(id, continuation) }) {
                case .none:
                    break
                case .placed:
                    continuation.resume()
                case .failed(let error):
                    continuation.resume(throwing: error)
                }
            }
        } onCancel: {
            leaveLine(key: key, waiter: id, with: .cancelled)
        }
    }

    /// Takes waiter `id`, which never started waiting, out of `key`'s line. Returns `true` when
    /// it was given a place meanwhile, which it then holds.
    func abandonLine(key: String, waiter id: Int) -> Bool {
        if state.withLockedValue({ $0.leaveLine(key: key, waiter: id) }) {
            return false
        }
        line.withLockedValue { $0.discard(id) }
        return true
    }

    /// Gives waiter `id` the place just released.
    func grantPlace(to id: Int) {
        line.withLockedValue { $0.settle(id, .placed) }?.resume()
    }

    /// Takes waiter `id` out of `key`'s line, failing it with `error`; nothing when it was
    /// given a place meanwhile (it then holds the place, and the request releases it).
    private func leaveLine(key: String, waiter id: Int, with error: MoyaError) {
        guard state.withLockedValue({ $0.leaveLine(key: key, waiter: id) }) else { return }
        line.withLockedValue { $0.settle(id, .failed(error)) }?.resume(throwing: error)
    }
}
