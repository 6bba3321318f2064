import Foundation
import NIOCore

extension RequestLifecycle {
    /// Finishes admitting the attempt through the session's resilience policies (`start`, decided
    /// before it is adapted and sent), waiting when they say so, and keeps what it holds until
    /// the transport answers.
    func admit(_ start: ResilienceGate.Start, through gate: ResilienceGate) async throws(MoyaError) {
        hold(try await gate.admitted(after: start))
    }

    /// Sends an attempt that no adapting step admitted (the request has no interceptor) once
    /// the session's resilience policies admit it: at once, most often, with no task; after
    /// its wait, in a task the attempt's cancellation stops. A refusal is the attempt's answer,
    /// which plugins see like any other failure.
    func sendWhenAdmitted(
        _ request: URLRequest,
        admitting attempt: Int,
        through gate: ResilienceGate,
        deadline: NIODeadline?,
        cancellation: TransportCancellation,
        step: Int
    ) {
        let start = gate.start(request, attempt: attempt)
        switch start {
        case .admitted(let admitted):
            hold(admitted)
            send(request, deadline: deadline, cancellation: cancellation, step: step)
        case .refused(let error):
            perform(withMachine { $0.sent(.failure(error), step: step) })
        case .waits:
            let task = withRequestContext {
                LifecycleWork.start { [self] in
                    do throws(MoyaError) {
                        try await admit(start, through: gate)
                    } catch {
                        perform(withMachine { $0.sent(.failure(error), step: step) })
                        return
                    }
                    send(request, deadline: deadline, cancellation: cancellation, step: step)
                }
            }
            // A cancel while it waits ends the wait; the machine, cancelling the transport,
            // then delivers the cancel when the attempt answers.
            cancellation.onCancel { task.cancel() }
        }
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
