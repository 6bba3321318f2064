import Dispatch
import Foundation
import Logging
import NIOConcurrencyHelpers

/// Runs a session's `ResiliencePolicies` around each attempt: `admit` before it is sent (which
/// may fail at once, or wait without holding a thread), `release` once the transport answered
/// or the attempt was dropped, and `mayRetry` when a retrier asks for another attempt.
///
/// `State` decides; this type reads the clock, keeps the continuations of requests waiting in a
/// concurrency limit's line, and sleeps out a rate limit's wait in the caller's task, so that
/// cancelling the request ends the wait.
final class ResilienceGate: Sendable {
    /// What an admitted attempt holds until it is released.
    struct Permit: Sendable {
        let key: String
        let heldPlace: Bool
        let trial: Bool
        let admittedAt: Double
    }

    let policies: ResiliencePolicies
    let logger: Logger?
    /// Seconds on a monotonic clock.
    let clock: @Sendable () -> Double
    let state: NIOLockedValueBox<State>
    let line = NIOLockedValueBox(Line())
    /// The plugins told of the breakers' changes of state (`CircuitStateObserver`).
    let observers = NIOLockedValueBox<[ObjectIdentifier: WeakObserver]>([:])

    init(policies: ResiliencePolicies, logger: Logger?, clock: @escaping @Sendable () -> Double = ResilienceGate.uptime)
    {
        self.policies = policies
        self.logger = logger
        self.clock = clock
        self.state = NIOLockedValueBox(State(policies: policies))
    }

    /// The gate for `policies`, or `nil` when none is set.
    static func make(_ policies: ResiliencePolicies, logger: Logger?) -> ResilienceGate? {
        policies.isEmpty ? nil : ResilienceGate(policies: policies, logger: logger, clock: policies.clock)
    }

    @Sendable static func uptime() -> Double {
        Double(DispatchTime.now().uptimeNanoseconds) / 1e9
    }

    /// What admitting an attempt decided, before any waiting.
    enum Start: Sendable {
        /// It goes now, holding the permit (`nil` when no policy gates attempts).
        case admitted(Permit?)
        /// A policy refused it.
        case refused(MoyaError)
        /// It goes after a wait (`wait(_:)`).
        case waits(Waiting)
    }

    /// An admitted attempt that waits for its rate-limit turn or its place in line.
    struct Waiting: Sendable {
        let permit: Permit
        let waiter: Int
        let seconds: Double
        let place: State.Place
        let url: URL?
    }

    /// The permit `start` decided on, once its wait is over: throws the policy's error, or
    /// `.cancelled` when the task is cancelled while it waits.
    func admitted(after start: Start) async throws(MoyaError) -> Permit? {
        switch start {
        case .admitted(let permit):
            return permit
        case .refused(let error):
            throw error
        case .waits(let waiting):
            return try await wait(waiting)
        }
    }

    /// Decides whether attempt number `attempt` of `request` goes, is refused or waits, without
    /// waiting: most attempts are admitted here, and the caller needs no task for them.
    func start(_ request: URLRequest, attempt: Int) -> Start {
        let now = clock()
        let gates = policies.gatesAttempts
        let key = gates ? policies.key(request) : ""
        // One lock for the budget's count and the admission: this runs for every attempt.
        typealias Decided = (waiter: Int, admission: State.Admission, changes: [BreakerChange])
        let admitted = state.withLockedValue { state -> Decided? in
            if attempt == 1 {
                state.requestStarted(now: now)
            }
            guard gates else { return nil }
            let waiter = state.nextWaiter()
            let admission = state.admit(key: key, waiter: waiter, now: now)
            return (waiter, admission, state.takeBreakerChanges())
        }
        guard let (waiter, admission, changes) = admitted else { return .admitted(nil) }
        report(changes)
        switch admission {
        case .circuitOpen(let retryAt):
            return .refused(
                .underlying(MoyaClientError.circuitOpen(key: key, url: request.url, retryAfter: date(of: retryAt)), nil)
            )
        case .rateLimited(let retryAt):
            return .refused(
                .underlying(MoyaClientError.rateLimited(key: key, url: request.url, retryAfter: date(of: retryAt)), nil)
            )
        case .lineFull:
            return .refused(
                .underlying(
                    MoyaClientError.concurrencyLimitReached(
                        key: key,
                        url: request.url,
                        reason: "its waiting line is full"
                    ),
                    nil
                )
            )
        case let .go(wait, trial, place):
            let permit = Permit(key: key, heldPlace: place != .unlimited, trial: trial, admittedAt: now)
            guard wait > 0 || place == .queued else { return .admitted(permit) }
            return .waits(Waiting(permit: permit, waiter: waiter, seconds: wait, place: place, url: request.url))
        }
    }

    /// Waits out an admitted attempt's turn and its place in line; throws `.cancelled` when the
    /// task is cancelled meanwhile, having given back what the attempt held.
    func wait(_ waiting: Waiting) async throws(MoyaError) -> Permit {
        let (permit, place) = (waiting.permit, waiting.place)
        var leftLine = false
        do {
            if waiting.seconds > 0 {
                try await _Concurrency.Task.sleep(nanoseconds: UInt64(min(waiting.seconds, 86_400) * 1e9))
            }
            if place == .queued {
                // Failing, the wait has taken the waiter out of the line already.
                leftLine = true
                try await waitForPlace(key: permit.key, waiter: waiting.waiter, url: waiting.url)
            }
        } catch {
            // Cancelled while sleeping out its turn, a waiter leaves the line it stands in,
            // unless it was given a place meanwhile, which it then gives back.
            let leavesNow = place == .queued && !leftLine
            let holds = place == .held || (leavesNow && !abandonLine(key: permit.key, waiter: waiting.waiter))
            release(permit.holding(holds), result: nil)
            throw MoyaError.wrapping(error)
        }
        return permit
    }

    /// The attempt holding `permit` ended with `result`, or `nil` when it was never answered.
    func release(_ permit: Permit, result: Result<Response, MoyaError>?) {
        let now = clock()
        var outcome: CircuitBreaker.StateMachine.Outcome?
        var hints: RateLimitHints.Hints?
        if let result, !Self.isCancel(result) {
            if let breaker = policies.circuitBreaker {
                outcome = breaker.isFailure(result) ? .failure : .success
            }
            if policies.rateLimit != nil, let response = Self.response(of: result) {
                hints = RateLimitHints.hints(after: response)
            }
        }
        let (next, changes) = state.withLockedValue { state in
            let ended = State.Ended(
                heldPlace: permit.heldPlace,
                trial: permit.trial,
                outcome: outcome,
                duration: now - permit.admittedAt,
                hints: hints
            )
            let next = state.release(key: permit.key, ended, now: now)
            return (next, state.takeBreakerChanges())
        }
        report(changes)
        if let next {
            grantPlace(to: next)
        }
    }

    /// Whether the budget allows another attempt after `result`; says once, on the logger,
    /// why a request was not retried.
    func mayRetry(_ request: URLRequest, after result: Result<Response, MoyaError>) -> Bool {
        guard policies.retryBudget != nil else { return true }
        let now = clock()
        guard state.withLockedValue({ $0.mayRetry(now: now) }) else {
            logger?.notice(
                "Not retried: the session's retry budget is spent; the request fails with its last outcome",
                metadata: ["url": "\(request.url.map(URLRedaction.hidingPassword)?.absoluteString ?? "")"]
            )
            return false
        }
        return true
    }

    private func date(of instant: Double) -> Date {
        Date(timeIntervalSinceNow: instant - clock())
    }

    private static func isCancel(_ result: Result<Response, MoyaError>) -> Bool {
        if case .failure(let error) = result {
            return error.isCancellation
        }
        return false
    }

    private static func response(of result: Result<Response, MoyaError>) -> Response? {
        switch result {
        case .success(let response): response
        case .failure(let error): error.response
        }
    }
}

extension ResilienceGate.Permit {
    /// The permit, holding a place or not.
    func holding(_ place: Bool) -> ResilienceGate.Permit {
        ResilienceGate.Permit(key: key, heldPlace: place, trial: trial, admittedAt: admittedAt)
    }
}
