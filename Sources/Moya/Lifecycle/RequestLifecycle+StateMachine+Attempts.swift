import Foundation
import NIOCore

extension RequestLifecycle.StateMachine {
    // MARK: Attempts

    /// The interceptor adapted the attempt's request (or failed to, or the adapted request has
    /// illegal headers).
    mutating func adapted(_ result: Result<URLRequest, MoyaError>, step: Int) -> Action {
        guard step == self.step, case .adapting(let attempt, _) = phase else { return .none }
        switch result {
        case .failure(let error):
            return finish(.failure(error))
        case .success(let request):
            return send(Attempt(number: attempt.number, request: request))
        }
    }

    /// The transport answered the attempt. `body`, for a streamed request, is what is left to
    /// read of the response whose head `result` carries.
    mutating func sent(_ result: Result<Response, MoyaError>, body: ResponseChunks? = nil, step: Int) -> Action {
        guard step == self.step else { return .none }
        switch phase {
        case .sending(let attempt, _):
            if let body {
                openBody = (body, step)
            }
            guard let interceptor else { return finish(result) }
            return move(to: .deciding(attempt, result, nil)) {
                .decide(sent: attempt.request, interceptor, attempt: attempt.number, result: result, step: $0)
            }
        case .cancellingTransport(let subscriber):
            // The cancelled transport has wound down: its answer, whatever it is, is dropped.
            phase = .finished
            return .finish(.failure(.cancelled), Subscribers(subscriber), notifyPlugins: announced)
        default:
            return .none
        }
    }

    /// The interceptor decided about the attempt. `now` tells whether the whole-request
    /// deadline has passed: no attempt starts after it.
    mutating func decided(_ decision: RetryResult, step: Int, now: NIODeadline) -> Action {
        guard step == self.step, case .deciding(let attempt, let result, _) = phase else { return .none }
        switch decision {
        case .doNotRetry:
            return finish(result)
        case .doNotRetryWithError(let error):
            return finish(.failure(error))
        case .retry, .retryWithDelay:
            if let deadline, now >= deadline {
                return finish(result)
            }
            dropOpenBody()
            guard case .retryWithDelay(let seconds) = decision, seconds > 0 else {
                return nextAttempt(after: attempt)
            }
            return move(to: .waitingToRetry(attempt, nil)) { .wait(seconds: seconds, step: $0) }
        }
    }

    /// The wait before the next attempt is over.
    mutating func waited(step: Int) -> Action {
        guard step == self.step, case .waitingToRetry(let attempt, _) = phase else { return .none }
        return nextAttempt(after: attempt)
    }

    /// Stores the task working for the current state. Returns `true` when the task must be
    /// cancelled at once: the request was cancelled before the task could be stored.
    mutating func workStarted(_ work: Work, step: Int) -> Bool {
        guard step == self.step else { return true }
        switch phase {
        case .preparing(nil):
            phase = .preparing(work)
        case .adapting(let attempt, nil):
            phase = .adapting(attempt, work)
        case .deciding(let attempt, let result, nil):
            phase = .deciding(attempt, result, work)
        case .waitingToRetry(let attempt, nil):
            phase = .waitingToRetry(attempt, work)
        default:
            return true
        }
        return false
    }

    mutating func startAttempt(number: Int, request: URLRequest) -> Action {
        let attempt = Attempt(number: number, request: request)
        guard let interceptor else { return send(attempt) }
        return move(to: .adapting(attempt, nil)) {
            .adapt(request, interceptor, attempt: number, step: $0)
        }
    }

    private mutating func nextAttempt(after attempt: Attempt) -> Action {
        guard let prepared else { return .none }
        return startAttempt(number: attempt.number + 1, request: prepared)
    }

    private mutating func send(_ attempt: Attempt) -> Action {
        let deadline = self.deadline
        let cancellation = TransportCancellation()
        let admitting = interceptor == nil ? attempt.number : nil
        return move(to: .sending(attempt, cancellation)) {
            .send(attempt.request, deadline: deadline, cancellation, admitting: admitting, step: $0)
        }
    }

    // MARK: Cancelling and finishing

    mutating func cancel(subscriber id: Int) -> CancelAction {
        cancelledIDs.insert(id)
        guard let subscriber = subscribers.remove(id: id) else { return .none }
        guard subscribers.isEmpty else { return .detach(subscriber) }
        let notifyPlugins = announced
        let work: Work?
        switch phase {
        case .finished, .cancellingTransport, .streaming:
            // A subscriber is never left once the request finished; kept for completeness.
            return .none
        case .sending(_, let cancellation):
            phase = .cancellingTransport(subscriber)
            return .cancelTransport(cancellation)
        case .building, .announcing:
            work = nil
        case .preparing(let task), .adapting(_, let task), .deciding(_, _, let task), .waitingToRetry(_, let task):
            work = task
        }
        dropOpenBody()
        phase = .finished
        return .cancelRequest(subscriber, work, notifyPlugins: notifyPlugins)
    }

    /// Finishes the request with `result`, validated: the subscribers to deliver to, or
    /// `.none` if it had already finished (a late result after a cancel). A streamed attempt
    /// whose head passed is handed over, and plugins hear of it when its body ends.
    mutating func finish(_ result: Result<Response, MoyaError>) -> Action {
        guard !isFinished else { return .none }
        defer { subscribers = Subscribers() }
        let validation = self.validation
        let validated = result.flatMap { RequestLifecycle.validate($0, with: validation) }
        if case .success(let head) = validated, let open = openBody {
            openBody = nil
            phase = .streaming(head: head, sentStep: open.sentStep)
            return .handOver(head, open.body, subscribers)
        }
        dropOpenBody()
        phase = .finished
        return .finish(validated, subscribers, notifyPlugins: announced)
    }

    /// The reader of a handed-over stream is done with the body of the attempt sent at `step`.
    mutating func streamEnded(_ termination: ChunkChannel.Termination, step: Int) -> Action {
        guard case .streaming(let head, let sentStep) = phase, sentStep == step else { return .none }
        phase = .finished
        switch termination {
        case .producerEnded(.finished):
            return .report(.success(head))
        case .producerEnded(.failed(let error)):
            return .report(.failure(error))
        case .consumerLeft:
            return .report(.failure(.cancelled))
        }
    }

    /// Moves to `phase` as a new step, and returns the action `makeAction` builds for it.
    mutating func move(to phase: Phase, _ makeAction: (Int) -> Action) -> Action {
        step += 1
        self.phase = phase
        return makeAction(step)
    }
}
