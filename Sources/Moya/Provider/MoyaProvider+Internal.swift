import Foundation

extension MoyaProvider {
    /// The one request path every surface (callbacks, async/await) goes through:
    /// endpoint → stub behaviour → in-flight table → lifecycle.
    func perform(
        _ target: Target,
        callback: CallbackTarget,
        progress: ProgressBlock?,
        completion: @escaping Completion
    ) -> RequestToken {
        let endpoint = self.endpoint(target)
        let stubBehavior = stubClosure(target)
        let callback = callback.resolved(for: stubBehavior)
        let table = inflightTable
        let active = activeRequests

        // Looked up once: a cast to a protocol is a search of the conformance tables.
        let policies = targetsMayHavePolicies ? target as? RequestPolicies : nil
        let makeLifecycle = { () -> RequestLifecycle in
            let lifecycle = RequestLifecycle(
                context: .init(
                    target: target,
                    endpoint: endpoint,
                    stubBehavior: stubBehavior,
                    plugins: self.plugins,
                    hasAsyncPlugins: self.hasAsyncPlugins,
                    session: self.session,
                    requestClosure: self.requestClosure,
                    interceptor: self.interceptor(with: policies),
                    activeRequests: active,
                    policies: policies
                )
            )
            active.insert(lifecycle)
            return lifecycle
        }

        if trackInflights {
            // The table, not the lifecycle's end, removes the entry: after the completions ran.
            let joined = table.join(endpoint, callback: callback, progress: progress, completion: completion) {
                makeLifecycle()
            }
            guard let joined else {
                // A brand-new lifecycle always accepts its first caller; this cannot happen.
                let handedOver = UserValue(completion)
                callback.execute { handedOver.value(.failure(.cancelled)) }
                return RequestToken(lifecycle: nil, subscriber: 0)
            }
            if joined.isNew {
                joined.lifecycle.start()
            }
            return RequestToken(lifecycle: joined.lifecycle, subscriber: joined.subscriber)
        }

        let lifecycle = makeLifecycle()
        let subscriber = lifecycle.addSubscriber(callback: callback, progress: progress, completion: completion) ?? 0
        let token = RequestToken(lifecycle: lifecycle, subscriber: subscriber)
        lifecycle.start()
        return token
    }
}

extension MoyaProvider {
    /// The interceptor for one target's requests: adapters of the session, then of the
    /// provider; retriers of the target (`RequestPolicies`), then the provider, then the session.
    func interceptor(with policies: RequestPolicies?) -> RequestInterceptor? {
        let targetPolicy = policies?.retryPolicy
        let layers = interceptorLayers
        if layers.isEmpty, targetPolicy == nil {
            return nil
        }
        if layers.count == 1, targetPolicy == nil {
            return layers[0]
        }
        let retriers: [RequestRetrier] = [targetPolicy].compactMap { $0 } + layers.reversed()
        return Interceptor(adapters: layers, retriers: retriers)
    }
}
