import Foundation

extension RequestLifecycle {
    // MARK: Attempt observers (`AttemptObservingPlugin`)

    /// Starts the observers' values for this request, before the plugins' `prepare`, in the
    /// caller's context.
    func startObserving(_ request: URLRequest) {
        // Checked before binding the context: without observers there is nothing to bind for.
        guard !context.attemptObservers.isEmpty else { return }
        let started = withRequestContext {
            context.attemptObservers.map { AttemptObservation($0, request: request, target: context.target) }
        }
        observations.withLockedValue { $0 = AttemptObservations(started) }
    }

    /// An attempt is about to be sent as `request`: the observers may change it.
    func observeAttemptWillSend(_ request: inout URLRequest) {
        guard !context.attemptObservers.isEmpty else { return }
        let (number, observers) = observations.withLockedValue { $0.attemptWillSend() }
        for observer in observers {
            observer.willSend(number, &request)
        }
    }

    /// The attempt in flight ended with `result`.
    func observeAttemptDidEnd(_ result: Result<Response, MoyaError>) {
        guard !context.attemptObservers.isEmpty,
            let (number, observers) = observations.withLockedValue({ $0.attemptDidEnd() })
        else { return }
        for observer in observers {
            observer.didEnd(number, result)
        }
    }

    /// The request ended with `result`: the attempt still open ends with it.
    func observeRequestDidEnd(_ result: Result<Response, MoyaError>) {
        guard !context.attemptObservers.isEmpty else { return }
        let (openAttempt, observers) = observations.withLockedValue { $0.requestDidEnd() }
        for observer in observers {
            if let openAttempt {
                observer.didEnd(openAttempt, result)
            }
            observer.requestDidEnd(result)
        }
    }
}
