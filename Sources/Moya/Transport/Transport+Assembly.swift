/// Where every request's transport is put together: the one place that decides which
/// transport answers and which decorators wrap it.
enum TransportAssembly {
    /// The stub for a stubbed request, else the session (AsyncHTTPClient) behind its HTTP cache,
    /// when it has one; wrapped by the interceptor, when there is one, so that every attempt is
    /// adapted and may be retried.
    static func transport(
        stubBehavior: StubBehavior,
        session: Session,
        interceptor: RequestInterceptor?,
        target: UserValue<TargetType>
    ) -> Transport {
        let base: Transport =
            stubBehavior == .never
            ? CachingTransport.over(session, target: target) : StubTransport(behavior: stubBehavior)
        guard let interceptor else { return base }
        return InterceptingTransport(base: base, interceptor: interceptor, target: target)
    }
}
