import Foundation

extension MoyaProvider {
    /// The one request path every surface (callbacks, async/await) goes through:
    /// endpoint → stub behaviour → in-flight table → lifecycle.
    func perform(
        _ target: Target,
        delivery: ResultDelivery,
        progress: ProgressBlock?,
        completion: @escaping Completion
    ) -> RequestToken {
        let endpoint = self.endpoint(target)
        let stubBehavior = stubClosure(target)
        let delivery = delivery.resolved(for: stubBehavior)
        // Made here, not in a closure: a closure would copy the target once more to capture it.
        let context = lifecycleContext(for: target, endpoint: endpoint, stubBehavior: stubBehavior)

        if trackInflights {
            // The table, not the lifecycle's end, removes the entry: after the completions ran.
            let joined = inflightTable.join(endpoint, delivery: delivery, progress: progress, completion: completion) {
                RequestLifecycle.counted(context)
            }
            guard let joined else {
                // A brand-new lifecycle always accepts its first caller; this cannot happen.
                let handedOver = UserValue(completion)
                delivery.execute { handedOver.value(.failure(.cancelled)) }
                return RequestToken(lifecycle: nil, subscriber: 0)
            }
            if joined.isNew {
                joined.lifecycle.start()
            }
            return RequestToken(lifecycle: joined.lifecycle, subscriber: joined.subscriber)
        }

        let lifecycle = RequestLifecycle.counted(consume context)
        let subscriber = lifecycle.addSubscriber(delivery: delivery, progress: progress, completion: completion) ?? 0
        let token = RequestToken(lifecycle: lifecycle, subscriber: subscriber)
        lifecycle.start()
        return token
    }

    /// What the provider gives every request to `target`, streamed (`streaming`) or not.
    func lifecycleContext(
        for target: Target,
        endpoint: Endpoint,
        stubBehavior: StubBehavior,
        streaming: RequestLifecycle.Streaming? = nil
    ) -> RequestLifecycle.Context {
        // Looked up once: a cast to a protocol is a search of the conformance tables.
        let policies = targetsMayHavePolicies ? target as? RequestPolicies : nil
        return RequestLifecycle.Context(
            target: target,
            endpoint: endpoint,
            stubBehavior: stubBehavior,
            plugins: plugins,
            hasAsyncPlugins: hasAsyncPlugins,
            sessionPolicy: session.policy,
            transport: TransportAssembly.transport(
                stubBehavior: stubBehavior,
                session: session,
                policies: policies
            ),
            requestClosure: requestClosure,
            interceptor: interceptor(with: policies),
            activeRequests: activeRequests,
            policies: policies,
            streaming: streaming,
            mayDecodeErrorBody: targetsMayDecodeErrorBodies,
            resilience: stubBehavior == .never ? resilienceGate(for: target, policies: policies) : nil,
            attemptObservers: attemptObservers
        )
    }

    /// The gate of the target's own resilience policies, when it sets them, else the session's.
    private func resilienceGate(for target: Target, policies: RequestPolicies?) -> ResilienceGate? {
        guard let own = policies?.resilience else { return session.resilience }
        // A MultiTarget's policies are its wrapped target's: their state is that type's.
        let owner: Any.Type = (target as? MultiTarget).map { type(of: $0.target) } ?? Target.self
        return session.targetGates.gate(for: own, of: owner)
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
