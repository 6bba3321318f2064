/// Where a request's transport is put together: the one place that decides which transport
/// answers and which decorators wrap it.
enum TransportAssembly {
    /// The stub for a stubbed request, else the session's network transport: its transport
    /// behind its HTTP cache and its cookie storage (`network(over:configuration:cachePolicy:)`),
    /// made once by the session unless the target's own cache policy asks for another.
    ///
    /// Retries and adapters are not a transport's business: the lifecycle runs every attempt,
    /// so the cache sees each attempt as adapted.
    static func transport(
        stubBehavior: StubBehavior,
        session: Session,
        policies: RequestPolicies?
    ) -> any StreamTransport {
        guard stubBehavior == .never else {
            return StubTransport(behavior: stubBehavior)
        }
        guard session.configuration.cache != nil, let cachePolicy = policies?.cachePolicy else {
            return session.networkTransport
        }
        return network(
            over: session.streamTransport,
            configuration: session.configuration,
            keepsCookies: session.transportKeepsCookies,
            cachePolicy: cachePolicy
        )
    }

    /// `base` behind the HTTP cache, when the configuration has one, behind its cookie storage,
    /// when it has one and `base` does not keep cookies itself (URLSession does).
    static func network(
        over base: any StreamTransport,
        configuration: Session.Configuration,
        keepsCookies: Bool,
        cachePolicy: CachePolicy? = nil
    ) -> any StreamTransport {
        let cached = CachingTransport.over(base, configuration: configuration, policy: cachePolicy)
        guard !keepsCookies else { return cached }
        return CookieTransport.over(cached, configuration: configuration)
    }
}
