import Foundation
import NIOCore

/// One run of the request pipeline for one endpoint, from the `requestClosure` to the
/// completions, shared by every caller that joined it (see `trackInflights`).
///
/// The rules live in `StateMachine`, which owns every attempt; this type performs the actions
/// it decides on, outside the lock: plugins, interceptor, transport, callbacks.
final class RequestLifecycle: Sendable {
    /// What the provider hands the lifecycle for one request.
    ///
    /// - Note: `@unchecked Sendable` because it holds the user's target, plugins and request
    ///   closure, which Moya does not require to be `Sendable`; `UserValue` says why the
    ///   pipeline may carry them between threads.
    struct Context: @unchecked Sendable {
        let target: TargetType
        let endpoint: Endpoint
        let stubBehavior: StubBehavior
        let plugins: [PluginType]
        /// Whether a plugin is an `AsyncPluginType`, so that `prepare` must run in a task.
        let hasAsyncPlugins: Bool
        /// What the lifecycle reads of the session.
        let sessionPolicy: Session.Policy
        /// The stub or the session's transport, with its decorators: the same for every attempt.
        let transport: any StreamTransport
        let requestClosure: (Endpoint, @escaping @Sendable (Result<URLRequest, MoyaError>) -> Void) -> Void
        /// Adapts and retries each attempt: the session's, the provider's and the target's, combined.
        let interceptor: RequestInterceptor?
        /// The provider's running requests, which this one leaves once it is over, before any
        /// delivery; `nil` when no provider tracks it (tests).
        let activeRequests: ActiveRequests?
        /// The target's own policies, when it has some: looked up once per request.
        var policies: RequestPolicies? = nil
        /// For a streamed request (`MoyaProvider.stream`), what sets it apart; `nil` otherwise.
        var streaming: Streaming? = nil
        /// Whether the target's type may declare an error body (`DecodableErrorTarget`), so
        /// that the result is looked at for one.
        var mayDecodeErrorBody = false
        /// The session's resilience policies, which admit each attempt and may refuse a
        /// retry; `nil` when none is set, and for a stubbed request.
        var resilience: ResilienceGate? = nil
        /// The plugins that watch each attempt (`AttemptObservingPlugin`), found once per provider.
        var attemptObservers: [any AttemptObservingPlugin] = []
    }

    /// What sets a streamed request apart: its response is handed over at the head.
    struct Streaming: Sendable {
        /// Headers added to the built request, before plugins see it, unless it sets them
        /// (`Cache-Control`, `Last-Event-ID` for server-sent events).
        var addedHeaders: [String: String] = [:]
        /// Headers set on the built request, before plugins see it, whatever it says
        /// (`Accept` for server-sent events: a target's default `Accept` must not turn them
        /// into JSON).
        var replacedHeaders: [String: String] = [:]
    }

    typealias Action = StateMachine.Action

    let context: Context
    /// Identifies this request to plugins while their hooks run; `nil` when nothing can read
    /// `RequestContext.current`: no plugin, no interceptor, no session logger. Binding a
    /// task-local costs a lock and, off a task, an allocation; so does making a context.
    let requestContext: RequestContext?
    let machine: InlineLock<StateMachine>
    /// The stub or the session: the same for every attempt.
    let transport: any StreamTransport
    /// What the attempt in flight holds of the resilience policies, released once: when the
    /// transport answers, or when the request ends without sending it.
    let permit = InlineLock<ResilienceGate.Permit?>(nil)
    /// The attempt observers' values for this request; empty without such plugins.
    let observations = InlineLock(AttemptObservations())

    init(context: Context) {
        self.machine = InlineLock(StateMachine(validation: context.target.validationType))
        self.transport = context.transport
        let bindsContext = !context.plugins.isEmpty || context.interceptor != nil || context.sessionPolicy.hasLogger
        self.requestContext = bindsContext ? RequestContext() : nil
        // Stored last, so that the context moves into place instead of being copied.
        self.context = context
    }

    /// A lifecycle for `context`, counted among its provider's running requests until it ends.
    static func counted(_ context: consuming Context) -> RequestLifecycle {
        let lifecycle = RequestLifecycle(context: context)
        lifecycle.context.activeRequests?.insert(lifecycle)
        return lifecycle
    }

    /// Adds a caller; `nil` once the request has finished.
    func addSubscriber(delivery: ResultDelivery, progress: ProgressBlock?, completion: @escaping Completion) -> Int? {
        withMachine { $0.addSubscriber(delivery: delivery, progress: progress, completion: completion) }
    }

    /// The completions of the callers still waiting.
    var pendingCompletions: [Completion] {
        withMachine { $0.completions }
    }

    /// Runs the `requestClosure`; the rest follows from its answer.
    ///
    /// Everything that follows synchronously (a request built at once, synchronous plugins, an
    /// immediate stub) runs in the request's context, set once here.
    func start() {
        withRequestContext {
            context.requestClosure(context.endpoint) { [self] result in
                let built = result.map { Self.applying(context.policies, context.streaming, to: $0) }
                perform(withMachine { $0.built(built) })
            }
        }
    }

    /// Runs `body` on the machine, under its lock. Stream bodies the machine let go of are
    /// released after the lock: releasing one ends its transfer, which reports to the machine.
    func withMachine<T>(_ body: (inout StateMachine) -> T) -> T {
        let (value, released) = machine.withLockedValue { machine in
            (body(&machine), machine.takeReleasedBodies())
        }
        withExtendedLifetime(released) {}
        return value
    }

    /// Runs `body` with `RequestContext.current` set to this request's, setting it only when it
    /// is not already: each task-local binding costs a lock in the concurrency runtime.
    func withRequestContext<T>(_ body: () throws -> T) rethrows -> T {
        guard let requestContext, RequestContext.current != requestContext else {
            return try body()
        }
        return try RequestContext.$current.withValue(requestContext, operation: body)
    }

    /// Cancels every caller, and so the request.
    func cancelAll() {
        for id in withMachine({ $0.subscriberIDs }) {
            cancel(subscriber: id)
        }
    }

    /// Whether this caller asked to cancel.
    func isCancelled(subscriber id: Int) -> Bool {
        withMachine { $0.isCancelled(subscriber: id) }
    }

    /// Cancels one caller. The request itself stops when no caller is left.
    ///
    /// Returns the task that was working for the request, now cancelled, for a caller that
    /// wants to know when it has ended (tests).
    @discardableResult
    func cancel(subscriber id: Int) -> StateMachine.Work? {
        switch withMachine({ $0.cancel(subscriber: id) }) {
        case .none:
            return nil
        case .detach(let subscriber):
            deliver(.failure(.cancelled), to: StateMachine.Subscribers(subscriber), notifyPlugins: false)
            return nil
        case let .cancelRequest(subscriber, work, notifyPlugins):
            // The cancel is delivered without waiting for the task: an interceptor's token
            // refresh, say, goes on for the other requests that share it.
            work?.cancel()
            finish(.failure(.cancelled), to: StateMachine.Subscribers(subscriber), notifyPlugins: notifyPlugins)
            return work
        case .cancelTransport(let cancellation):
            // The transport answers once it has wound down; the machine then delivers the cancel.
            cancellation.cancel()
            return nil
        }
    }

    /// Performs what the machine decided. Each step's outcome is reported back with the step
    /// it belongs to, and performed in turn.
    func perform(_ action: consuming Action) {
        // Consumed, so that each case's values move out of the action instead of being copied.
        switch consume action {
        case .none:
            return
        case let .prepare(request, step):
            prepare(request, step: step)
        case let .announce(request, step):
            announce(request, step: step)
        case let .adapt(request, interceptor, attempt, step):
            let gate = context.resilience
            // Decided now, in the order requests reach this step, not in the order tasks run.
            let start = gate?.start(request, attempt: attempt)
            let target = UserValue(context.target)
            startWork(step: step) { [self] in
                let adapted: Result<URLRequest, MoyaError>
                do {
                    if let gate, let start {
                        try await admit(start, through: gate)
                    }
                    adapted = .success(try await interceptor.adapt(request, for: target.value))
                } catch {
                    releasePermit(result: nil)
                    adapted = .failure(MoyaError.wrapping(error))
                }
                let checked = adapted.flatMap(Self.checkingHeaders)
                return { $0.adapted(checked, step: step) }
            }
        case let .send(request, deadline, cancellation, admitting, step):
            if let admitting, let gate = context.resilience {
                sendWhenAdmitted(
                    request,
                    admitting: admitting,
                    through: gate,
                    deadline: deadline,
                    cancellation: cancellation,
                    step: step
                )
            } else {
                send(request, deadline: deadline, cancellation: cancellation, step: step)
            }
        case let .decide(sent, interceptor, attempt, result, step):
            let target = UserValue(context.target)
            let gate = context.resilience
            startWork(step: step) {
                var decision = await interceptor.retry(sent, for: target.value, attempt: attempt, dueTo: result)
                if let gate, decision.retries, !gate.mayRetry(sent, after: result) {
                    decision = .doNotRetry
                }
                let now = NIODeadline.now()
                return { $0.decided(decision, step: step, now: now) }
            }
        case let .wait(seconds, step):
            startWork(step: step) {
                // A cancelled sleep ends early; the machine has then finished and ignores this.
                try? await _Concurrency.Task.sleep(nanoseconds: UInt64(min(seconds, 86_400) * 1e9))
                return { $0.waited(step: step) }
            }
        case let .finish(result, subscribers, notifyPlugins):
            observeRequestDidEnd(result)
            finish(result, to: subscribers, notifyPlugins: notifyPlugins)
        case let .handOver(head, body, subscribers):
            handOver(head, body: body, to: subscribers)
        case .report(let result):
            observeRequestDidEnd(result)
            reportStreamEnd(result)
        }
    }

    /// Runs `work` in a task the machine stores for the current step, so that a cancel stops
    /// it; the event it returns is reported to the machine when it ends. The task inherits the
    /// request's context, so that adapters and retriers see it too, and runs on Dispatch's
    /// threads (`LifecycleWork`), so that a callback caller blocking the cooperative pool
    /// cannot starve it.
    func startWork(
        step: Int,
        _ work: @escaping @Sendable () async -> (inout StateMachine) -> Action
    ) {
        let task = withRequestContext {
            LifecycleWork.start { [self] in
                let event = await work()
                perform(withMachine { event(&$0) })
            }
        }
        if withMachine({ $0.workStarted(task, step: step) }) {
            task.cancel()
        }
    }

    func send(_ request: URLRequest, deadline: NIODeadline?, cancellation: TransportCancellation, step: Int) {
        var request = request
        observeAttemptWillSend(&request)
        let exchange = TransportExchange(
            request: request,
            endpoint: context.endpoint,
            nioDeadline: deadline,
            cancellation: cancellation,
            sessionHeaders: context.sessionPolicy.defaultHeaders
        )
        guard context.streaming == nil else {
            open(exchange, step: step)
            return
        }
        let events = TransportEvents(
            wantsProgress: { [self] in withMachine { $0.hasProgressListeners } },
            progress: { [self] progress in reportProgress(progress) },
            completion: { [self] result in
                observeAttemptDidEnd(result)
                releasePermit(result: result)
                perform(withMachine { $0.sent(result, step: step) })
            }
        )
        // The transport's work inherits the context, so its logs carry the request's id.
        withRequestContext {
            transport.send(exchange, events: events)
        }
    }
}
