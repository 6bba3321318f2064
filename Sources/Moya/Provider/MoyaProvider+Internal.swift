import Foundation

extension MoyaProvider {
    /// The one request path every surface (callbacks, async/await) goes through:
    /// endpoint → stub behaviour → in-flight table → lifecycle.
    func perform(
        _ target: Target,
        callback: CallbackTarget,
        progress: ProgressBlock?,
        completion: @escaping Completion
    ) -> Cancellable {
        let endpoint = self.endpoint(target)
        let stubBehavior = stubClosure(target)
        let table = inflightTable

        let makeLifecycle = { (onFinish: (@Sendable (RequestLifecycle) -> Void)?) in
            RequestLifecycle(context: .init(
                target: target,
                endpoint: endpoint,
                stubBehavior: stubBehavior,
                plugins: self.plugins,
                session: self.session,
                requestClosure: self.requestClosure,
                onFinish: onFinish
            ))
        }

        if trackInflights {
            let joined = table.join(endpoint, callback: callback, progress: progress, completion: completion) {
                makeLifecycle { table.remove($0) }
            }
            guard let joined else {
                // A brand-new lifecycle always accepts its first caller; this cannot happen.
                callback.execute { completion(.failure(.cancelled)) }
                return RequestToken(lifecycle: nil, subscriber: 0)
            }
            if joined.isNew {
                joined.lifecycle.start()
            }
            return RequestToken(lifecycle: joined.lifecycle, subscriber: joined.subscriber)
        }

        let lifecycle = makeLifecycle(nil)
        let subscriber = lifecycle.addSubscriber(callback: callback, progress: progress, completion: completion) ?? 0
        let token = RequestToken(lifecycle: lifecycle, subscriber: subscriber)
        lifecycle.start()
        return token
    }
}
