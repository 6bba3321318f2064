import NIOConcurrencyHelpers

/// Counts the attempts per key on the flaky endpoint, so that each caller (each demo run, each
/// test) sees its own failures however many run at once.
final class FlakyCounter: Sendable {
    private let attempts = NIOLockedValueBox<[String: Int]>([:])

    /// Records one more attempt for `key` and returns how many there have been.
    func recordAttempt(for key: String) -> Int {
        attempts.withLockedValue { attempts in
            attempts[key, default: 0] += 1
            return attempts[key, default: 0]
        }
    }
}
