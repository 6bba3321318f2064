import Foundation

extension RequestLifecycle {
    /// Ends the request for `subscribers`: tells the provider it is over, then delivers.
    func finish(
        _ result: Result<Response, MoyaError>,
        to subscribers: StateMachine.Subscribers,
        notifyPlugins: Bool
    ) {
        context.activeRequests?.remove(self)
        releasePermit(result: nil)
        // Outside the machine's lock: decoding an error body runs the user's decoder.
        guard context.mayDecodeErrorBody, context.streaming == nil else {
            deliver(result, to: subscribers, notifyPlugins: notifyPlugins)
            return
        }
        deliver(
            ErrorBodyDecoding.apply(to: result, target: context.target),
            to: subscribers,
            notifyPlugins: notifyPlugins
        )
    }

    func reportProgress(_ progress: Progress) {
        let listeners = withMachine { $0.progress(progress) }
        for listener in listeners {
            guard let block = listener.progress else { continue }
            let handedOver = UserValue(block)
            listener.delivery.execute {
                handedOver.value(ProgressResponse(progress: progress))
            }
        }
    }

    /// Runs `didReceive` (once) where the first subscriber's results are delivered, then each
    /// subscriber's progress, `process` and completion where its own are, all in the request's
    /// context.
    func deliver(
        _ result: Result<Response, MoyaError>,
        to subscribers: StateMachine.Subscribers,
        notifyPlugins: Bool
    ) {
        guard let first = subscribers.first else { return }
        // Only a progress block reads the last progress: most requests have none, and skip the lock.
        let lastProgress = subscribers.listenForProgress ? withMachine { $0.lastProgress } : nil
        // Delivery in place (the async surfaces, an immediate stub) forms no escaping closure,
        // which would be allocated.
        guard first.delivery.runsInPlace else {
            first.delivery.execute { [self] in
                deliverHere(result, to: subscribers, notifyPlugins: notifyPlugins, lastProgress: lastProgress)
            }
            return
        }
        deliverHere(result, to: subscribers, notifyPlugins: notifyPlugins, lastProgress: lastProgress)
    }

    /// `deliver`'s work, where the first subscriber's results are delivered.
    private func deliverHere(
        _ result: Result<Response, MoyaError>,
        to subscribers: StateMachine.Subscribers,
        notifyPlugins: Bool,
        lastProgress: Progress?
    ) {
        guard let firstDelivery = subscribers.first?.delivery else { return }
        withRequestContext {
            if notifyPlugins, !context.plugins.isEmpty {
                // `context.target` is passed where it lies: a local copy would copy it out of
                // its existential box, a retain and a release per request.
                for plugin in context.plugins {
                    plugin.didReceive(result, target: context.target)
                }
            }
            for subscriber in subscribers {
                guard subscriber.delivery.isSame(as: firstDelivery) else {
                    subscriber.delivery.execute { [self] in
                        withRequestContext { complete(subscriber, with: result, lastProgress: lastProgress) }
                    }
                    continue
                }
                complete(subscriber, with: result, lastProgress: lastProgress)
            }
        }
    }

    /// A subscriber's last progress event, the plugins' `process`, and its completion.
    private func complete(
        _ subscriber: StateMachine.Subscriber,
        with result: Result<Response, MoyaError>,
        lastProgress: Progress?
    ) {
        if let progress = subscriber.progress, case .success(let response) = result {
            progress(ProgressResponse(progress: lastProgress, response: response))
        }
        // A stream's failure is not processed: a plugin could not turn it into a stream.
        guard subscriber.receivesStream == nil else {
            subscriber.completion(result)
            return
        }
        let processed = context.plugins.reduce(result) { $1.process($0, target: context.target) }
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
