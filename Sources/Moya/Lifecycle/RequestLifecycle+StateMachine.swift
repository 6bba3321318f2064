import Foundation
import NIOCore

extension RequestLifecycle {
    /// The rules of one request's life, apart from any I/O so that they can be tested alone.
    ///
    /// A request is built (`requestClosure`), prepared (plugins), announced (`willSend`), then
    /// sent in attempts: each attempt is adapted and sent, and an interceptor decides whether
    /// another follows, at once or after a wait. The request finishes exactly once: with its
    /// result, or with a cancellation. Every subscriber is delivered exactly once: either with
    /// the shared result or, if it cancels first, alone with the cancelled error.
    ///
    /// Each state holds the resource working for it (a task, a transport), so that a cancel,
    /// decided here alone, knows what to stop. Every action carries the `step` it belongs to;
    /// an outcome reported with an older step arrived after the request moved on (a cancel,
    /// say) and is ignored.
    struct StateMachine {
        enum Phase {
            /// Waiting for the `requestClosure`.
            case building
            /// Plugins' `prepare`; asynchronous plugins run in the stored task.
            case preparing(Work?)
            /// Plugins' `willSend`, run synchronously by whoever received `.announce`.
            case announcing
            /// The interceptor adapts the attempt's request in the stored task.
            case adapting(Attempt, Work?)
            /// The transport carries the attempt, which the cancellation stops.
            case sending(Attempt, TransportCancellation)
            /// The attempt was cancelled: the cancel is delivered to the subscriber once the
            /// transport has wound down and answered, as URLSession does, so that no caller
            /// finds a half-written download or an open connection after it.
            case cancellingTransport(Subscriber)
            /// The interceptor decides, in the stored task, whether the attempt is tried again.
            case deciding(Attempt, Result<Response, MoyaError>, Work?)
            /// Waiting, in the stored task, before the next attempt.
            case waitingToRetry(Attempt, Work?)
            /// A streamed request's head was handed to its caller, who reads the body of the
            /// attempt sent at `sentStep`; plugins hear `didReceive` when the reader is done.
            case streaming(head: Response, sentStep: Int)
            case finished
        }

        /// One attempt of the request.
        struct Attempt {
            /// 1 for the first attempt.
            var number: Int
            /// The request as this attempt sends it (after adapting, once adapted).
            var request: URLRequest
        }

        /// Work the lifecycle started for a state: cancelled when the request is.
        typealias Work = _Concurrency.Task<Void, Never>

        /// - Note: `@unchecked Sendable` because the completion and progress block are the
        ///   caller's, which Moya does not require to be `Sendable`; each runs only on the
        ///   subscriber's delivery (see `UserValue`).
        struct Subscriber: @unchecked Sendable {
            let id: Int
            let delivery: ResultDelivery
            let progress: ProgressBlock?
            /// Receives the result; for a streamed request, only a failure.
            let completion: Completion
            /// For a streamed request: receives the head and its body once the head passed.
            var receivesStream: (@Sendable (StreamedResponse) -> Void)? = nil
        }

        /// What the lifecycle does next.
        enum Action {
            case none
            /// Run the plugins' `prepare` on the built request.
            case prepare(URLRequest, step: Int)
            /// Run the plugins' `willSend`, then report `announced`.
            case announce(URLRequest, step: Int)
            /// Adapt the request for an attempt with the interceptor.
            case adapt(URLRequest, RequestInterceptor, attempt: Int, step: Int)
            /// Send the request with the transport; the cancellation stops it. `admitting` is the
            /// attempt's number when the session's resilience policies are still to admit it (no
            /// interceptor: no adapting step admitted it), `nil` when they did.
            case send(URLRequest, deadline: NIODeadline?, TransportCancellation, admitting: Int?, step: Int)
            /// Ask the interceptor whether to try again.
            case decide(
                sent: URLRequest,
                RequestInterceptor,
                attempt: Int,
                result: Result<Response, MoyaError>,
                step: Int
            )
            /// Wait this many seconds, then report `waited`.
            case wait(seconds: TimeInterval, step: Int)
            /// Deliver the result to these subscribers; plugins' `didReceive` runs when their
            /// `willSend` did.
            case finish(Result<Response, MoyaError>, Subscribers, notifyPlugins: Bool)
            /// Hand a streamed request's head and body to the subscribers; `didReceive` waits for
            /// the body's end.
            case handOver(Response, ResponseChunks, Subscribers)
            /// Tell plugins (`didReceive`) how a handed-over stream ended.
            case report(Result<Response, MoyaError>)
        }

        enum CancelAction {
            /// Nothing to do: unknown subscriber, or already delivered.
            case none
            /// Deliver the cancelled error to this subscriber only; others still wait.
            case detach(Subscriber)
            /// The last subscriber left: the request is over. Deliver the cancelled error now,
            /// after cancelling the work in progress, if any.
            case cancelRequest(Subscriber, Work?, notifyPlugins: Bool)
            /// The last subscriber left while the transport carried the attempt: cancel it; the
            /// cancel is delivered once the transport answers (see `Phase.cancellingTransport`).
            case cancelTransport(TransportCancellation)
        }

        // The state is changed only by the machine's own methods, which live in this file and
        // in `+Attempts`; hence internal setters rather than private ones.
        var phase: Phase = .building
        /// A streamed attempt's body, held from its head's arrival while the interceptor decides,
        /// with the step the attempt was sent at, which its end is reported with.
        var openBody: (body: ResponseChunks, sentStep: Int)?
        /// Stream bodies the machine let go of (a retried or cancelled attempt's), kept until
        /// its owner takes them out of the lock: releasing the last reference to a body ends its
        /// transfer, which reports back to the machine, under the same lock.
        private var releasedBodies: [ResponseChunks] = []
        /// The target's `validationType`, applied to the result the request finishes with.
        let validation: ValidationType
        var step = 0
        var subscribers = Subscribers()
        private var nextID = 0
        private(set) var lastProgress: Progress?
        /// Adapts and retries the attempts; set once `willSend` has run.
        var interceptor: RequestInterceptor?
        /// The request as prepared, which every attempt adapts afresh.
        var prepared: URLRequest?
        /// When the whole request must have finished, across attempts and waits.
        var deadline: NIODeadline?
        /// Whether plugins' `willSend` ran, so that `didReceive` must.
        var announced = false
        /// The subscribers that asked to cancel, delivered already or not (`Cancellable.isCancelled`).
        var cancelledIDs: Set<Int> = []

        init(validation: ValidationType = .none) {
            self.validation = validation
        }

        /// Lets go of the open stream body, if any: its transfer is not wanted any more.
        mutating func dropOpenBody() {
            if let open = openBody {
                releasedBodies.append(open.body)
                openBody = nil
            }
        }

        /// The stream bodies let go of since the last call, to release outside the lock.
        mutating func takeReleasedBodies() -> [ResponseChunks] {
            guard !releasedBodies.isEmpty else { return [] }
            defer { releasedBodies = [] }
            return releasedBodies
        }

        /// Whether the request is over for its callers (a handed-over stream's body aside): no
        /// caller joins a request being cancelled either.
        var isFinished: Bool {
            switch phase {
            case .finished, .streaming, .cancellingTransport: true
            default: false
            }
        }

        /// The identifiers of the subscribers still waiting.
        var subscriberIDs: [Int] {
            subscribers.map(\.id)
        }

        func isCancelled(subscriber id: Int) -> Bool {
            cancelledIDs.contains(id)
        }

        var completions: [Completion] {
            subscribers.map(\.completion)
        }

        /// Adds a subscriber; `nil` once the request has finished (start a new one then).
        mutating func addSubscriber(
            delivery: ResultDelivery,
            progress: ProgressBlock?,
            completion: @escaping Completion,
            receivesStream: (@Sendable (StreamedResponse) -> Void)? = nil
        ) -> Int? {
            guard !isFinished else { return nil }
            let id = nextID
            nextID += 1
            subscribers.append(
                Subscriber(
                    id: id,
                    delivery: delivery,
                    progress: progress,
                    completion: completion,
                    receivesStream: receivesStream
                )
            )
            return id
        }

        // MARK: Building and preparing

        /// The `requestClosure` answered. A second answer is ignored.
        mutating func built(_ result: Result<URLRequest, MoyaError>) -> Action {
            guard case .building = phase else { return .none }
            switch result {
            case .failure(let error):
                return finish(.failure(error))
            case .success(let request):
                return move(to: .preparing(nil)) { .prepare(request, step: $0) }
            }
        }

        /// The plugins prepared the request (or failed to, or it has illegal headers).
        mutating func prepared(_ result: Result<URLRequest, MoyaError>, step: Int) -> Action {
            guard step == self.step, case .preparing = phase else { return .none }
            switch result {
            case .failure(let error):
                return finish(.failure(error))
            case .success(let request):
                prepared = request
                announced = true
                return move(to: .announcing) { .announce(request, step: $0) }
            }
        }

        /// The plugins' `willSend` ran. `interceptor` adapts and retries every attempt;
        /// `deadline` bounds them all.
        mutating func announced(interceptor: RequestInterceptor?, deadline: NIODeadline?, step: Int) -> Action {
            guard step == self.step, case .announcing = phase, let prepared else { return .none }
            self.interceptor = interceptor
            self.deadline = deadline
            return startAttempt(number: 1, request: prepared)
        }

        // MARK: Progress

        /// Whether a subscriber still waiting listens for progress.
        var hasProgressListeners: Bool {
            !isFinished && subscribers.listenForProgress
        }

        /// Records a progress event; returns the subscribers that listen for progress.
        mutating func progress(_ progress: Progress) -> [Subscriber] {
            guard !isFinished else { return [] }
            lastProgress = progress
            return subscribers.filter { $0.progress != nil }
        }
    }
}
