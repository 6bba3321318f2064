import Foundation
import NIOConcurrencyHelpers

/// One run of the request pipeline for one endpoint, from the `requestClosure` to the
/// completions, shared by every caller that joined it (see `trackInflights`).
///
/// The rules live in `StateMachine`; this type performs the actions it decides on, outside the
/// lock: plugins, transport, callbacks.
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
        let session: Session
        let requestClosure: (Endpoint, @escaping @Sendable (Result<URLRequest, MoyaError>) -> Void) -> Void
        /// Adapts and retries each attempt: the session's, the provider's and the target's, combined.
        let interceptor: RequestInterceptor?
        /// Called once when the request is over, before any delivery.
        let onFinish: (@Sendable (RequestLifecycle) -> Void)?
    }

    let context: Context
    /// Identifies this request to plugins while their hooks run.
    let requestContext = RequestContext()
    private let machine = NIOLockedValueBox(StateMachine())

    init(context: Context) {
        self.context = context
    }

    /// Adds a caller; `nil` once the request has finished.
    func addSubscriber(callback: CallbackTarget, progress: ProgressBlock?, completion: @escaping Completion) -> Int? {
        machine.withLockedValue { $0.addSubscriber(callback: callback, progress: progress, completion: completion) }
    }

    /// The completions of the callers still waiting.
    var pendingCompletions: [Completion] {
        machine.withLockedValue { $0.completions }
    }

    /// Runs the `requestClosure`; the rest follows from its answer.
    func start() {
        context.requestClosure(context.endpoint) { [self] result in
            requestBuilt(result)
        }
    }

    /// Cancels every caller, and so the request.
    func cancelAll() {
        for id in machine.withLockedValue({ $0.subscriberIDs }) {
            cancel(subscriber: id)
        }
    }

    /// Cancels one caller. The request itself stops when no caller is left.
    func cancel(subscriber id: Int) {
        switch machine.withLockedValue({ $0.cancel(subscriber: id) }) {
        case .none:
            return
        case .detach(let subscriber):
            deliver(.failure(.cancelled), to: [subscriber], notifyPlugins: false)
        case let .cancelRequest(subscriber, handle):
            context.onFinish?(self)
            guard let handle else {
                deliver(.failure(.cancelled), to: [subscriber], notifyPlugins: true)
                return
            }
            // As with URLSession, the cancelled error arrives once the transfer has stopped, so a
            // caller never finds a half-written download or an open connection after it.
            handle.cancel { [self] in
                deliver(.failure(.cancelled), to: [subscriber], notifyPlugins: true)
            }
        }
    }

    private func requestBuilt(_ result: Result<URLRequest, MoyaError>) {
        guard machine.withLockedValue({ $0.beginSending() }) else { return }
        let request: URLRequest
        switch result {
        case .failure(let error):
            finish(.failure(error), notifyPlugins: false)
            return
        case .success(let built):
            request = Self.applyingTargetTimeout(to: built, target: context.target)
        }

        let target = context.target
        guard context.hasAsyncPlugins else {
            let prepared = RequestContext.$current.withValue(requestContext) {
                context.plugins.reduce(request) { $1.prepare($0, target: target) }
            }
            send(prepared)
            return
        }
        _Concurrency.Task { [self] in
            await RequestContext.$current.withValue(requestContext) {
                do {
                    var prepared = request
                    for plugin in context.plugins {
                        if let plugin = plugin as? AsyncPluginType {
                            prepared = try await plugin.prepare(prepared, target: target)
                        } else {
                            prepared = plugin.prepare(prepared, target: target)
                        }
                    }
                    send(prepared)
                } catch {
                    finish(.failure(MoyaError.wrapping(error)), notifyPlugins: false)
                }
            }
        }
    }

    /// A target's own timeout (`RequestPolicies`) replaces URLRequest's default one only, so
    /// that a `requestClosure` that set a timeout keeps it.
    private static func applyingTargetTimeout(to request: URLRequest, target: TargetType) -> URLRequest {
        guard let timeout = (target as? RequestPolicies)?.timeoutInterval,
            request.timeoutInterval == URLRequest.defaultTimeoutInterval
        else { return request }
        var request = request
        request.timeoutInterval = timeout
        return request
    }

    private func send(_ prepared: URLRequest) {
        // A cancel while an asynchronous plugin was preparing has already been delivered.
        guard !machine.withLockedValue({ $0.isFinished }) else { return }
        let target = context.target
        if let problem = HeaderValidation.problem(in: prepared) {
            finish(.failure(.underlying(problem, nil)), notifyPlugins: false)
            return
        }

        let requestType = MoyaRequest(request: prepared, sessionHeaders: context.session.sessionHeaders)
        RequestContext.$current.withValue(requestContext) {
            for plugin in context.plugins {
                plugin.willSend(requestType, target: target)
            }
        }

        let transport = TransportAssembly.transport(
            stubBehavior: context.stubBehavior,
            session: context.session,
            interceptor: context.interceptor,
            target: UserValue(target)
        )
        let exchange = Exchange(request: prepared, endpoint: context.endpoint, credential: requestType.credential)
        let validation = target.validationType
        let events = TransportEvents(
            wantsProgress: { [self] in machine.withLockedValue { $0.hasProgressListeners } },
            progress: { [self] progress in reportProgress(progress) },
            completion: { [self] result in
                finish(result.flatMap { Self.validate($0, with: validation) }, notifyPlugins: true)
            }
        )
        // An interceptor's work inherits the context, so adapters and retriers see it too.
        let handle = RequestContext.$current.withValue(requestContext) {
            transport.send(exchange, events: events)
        }
        if let lateCancel = machine.withLockedValue({ $0.transportStarted(handle) }) {
            lateCancel.cancel(then: {})
        }
    }

    private func reportProgress(_ progress: Progress) {
        let listeners = machine.withLockedValue { $0.progress(progress) }
        for listener in listeners {
            guard let block = listener.progress else { continue }
            let handedOver = UserValue(block)
            listener.callback.execute {
                handedOver.value(ProgressResponse(progress: progress))
            }
        }
    }

    private func finish(_ result: Result<Response, MoyaError>, notifyPlugins: Bool) {
        let subscribers = machine.withLockedValue { $0.finish() }
        guard !subscribers.isEmpty else { return }
        context.onFinish?(self)
        deliver(result, to: subscribers, notifyPlugins: notifyPlugins)
    }

    /// Runs `didReceive` (once) on the first subscriber's callback target, then each
    /// subscriber's progress, `process` and completion on its own target.
    private func deliver(
        _ result: Result<Response, MoyaError>,
        to subscribers: [StateMachine.Subscriber],
        notifyPlugins: Bool
    ) {
        guard let first = subscribers.first else { return }
        let context = self.context
        let requestContext = self.requestContext
        let lastProgress = machine.withLockedValue { $0.lastProgress }
        first.callback.execute {
            if notifyPlugins {
                RequestContext.$current.withValue(requestContext) {
                    for plugin in context.plugins {
                        plugin.didReceive(result, target: context.target)
                    }
                }
            }
            for subscriber in subscribers {
                let complete: @Sendable () -> Void = {
                    Self.complete(
                        subscriber,
                        with: result,
                        lastProgress: lastProgress,
                        context: context,
                        requestContext: requestContext
                    )
                }
                if subscriber.callback.isSame(as: first.callback) {
                    complete()
                } else {
                    subscriber.callback.execute(complete)
                }
            }
        }
    }

    private static func complete(
        _ subscriber: StateMachine.Subscriber,
        with result: Result<Response, MoyaError>,
        lastProgress: Progress?,
        context: Context,
        requestContext: RequestContext
    ) {
        if let progress = subscriber.progress, case .success(let response) = result {
            progress(ProgressResponse(progress: lastProgress, response: response))
        }
        let processed = RequestContext.$current.withValue(requestContext) {
            context.plugins.reduce(result) { $1.process($0, target: context.target) }
        }
        subscriber.completion(processed)
    }

    /// Applies the target's `validationType` as Moya does: a rejected status code becomes
    /// `.underlying(.statusCode(response), response)`.
    static func validate(_ response: Response, with validation: ValidationType) -> Result<Response, MoyaError> {
        guard validation.accepts(response.statusCode) else {
            return .failure(.underlying(MoyaError.statusCode(response), response))
        }
        return .success(response)
    }
}
