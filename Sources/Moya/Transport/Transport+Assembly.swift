/// Where a request's transport is put together: the one place that decides which transport
/// answers and which decorators wrap it.
enum TransportAssembly {
    /// The stub for a stubbed request, else the session (AsyncHTTPClient) behind its HTTP cache,
    /// when it has one.
    ///
    /// Retries and adapters are not a transport's business: the lifecycle runs every attempt,
    /// so the cache sees each attempt as adapted.
    static func transport(stubBehavior: StubBehavior, session: Session, target: UserValue<TargetType>) -> Transport {
        stubBehavior == .never ? CachingTransport.over(session, target: target) : StubTransport(behavior: stubBehavior)
    }
}
