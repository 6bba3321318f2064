import Foundation

extension RequestLifecycle {
    /// Ends the request for `subscribers`: tells the provider it is over, then delivers.
    func finish(
        _ result: Result<Response, MoyaError>,
        to subscribers: [StateMachine.Subscriber],
        notifyPlugins: Bool
    ) {
        context.onFinish?(self)
        deliver(result, to: subscribers, notifyPlugins: notifyPlugins)
    }

    func reportProgress(_ progress: Progress) {
        let listeners = machine.withLockedValue { $0.progress(progress) }
        for listener in listeners {
            guard let block = listener.progress else { continue }
            let handedOver = UserValue(block)
            listener.callback.execute {
                handedOver.value(ProgressResponse(progress: progress))
            }
        }
    }

    /// Runs `didReceive` (once) on the first subscriber's callback target, then each
    /// subscriber's progress, `process` and completion on its own target.
    func deliver(
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
