import Foundation

extension RequestLifecycle {
    /// Finishes admitting the attempt through the session's resilience policies (`start`, decided
    /// before it is adapted and sent), waiting when they say so, and keeps what it holds until
    /// the transport answers.
    func admit(_ start: ResilienceGate.Start, through gate: ResilienceGate) async throws(MoyaError) {
        hold(try await gate.admitted(after: start))
    }

    /// Keeps `admitted` for the attempt in flight. A request that finished meanwhile (a cancel
    /// that came while it waited) gives it back at once.
    func hold(_ admitted: ResilienceGate.Permit?) {
        guard let admitted else { return }
        // Nothing is held here: the attempt before gave its permit back when it was answered.
        permit.withLockedValue { $0 = admitted }
        if withMachine({ $0.isFinished }) {
            releasePermit(result: nil)
        }
    }

    /// Gives back what the attempt in flight holds, judged by `result` (`nil`: never answered).
    /// Runs once per permit, whoever calls it first.
    func releasePermit(result: Result<Response, MoyaError>?) {
        guard let gate = context.resilience else { return }
        let held = permit.withLockedValue { held in
            defer { held = nil }
            return held
        }
        if let held {
            gate.release(held, result: result)
        }
    }
}

extension RetryResult {
    /// Whether the decision sends another attempt.
    var retries: Bool {
        switch self {
        case .retry, .retryWithDelay: true
        case .doNotRetry, .doNotRetryWithError: false
        }
    }
}
