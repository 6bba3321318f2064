/// Where a request's transport is put together: the one place that decides which transport
/// answers and which decorators wrap it.
enum TransportAssembly {
    /// The stub for a stubbed request, else the session (AsyncHTTPClient) behind its HTTP cache,
    /// when it has one, behind its cookie storage, when it has one; or the session's URLSession
    /// transport, when it was made with one, behind its HTTP cache.
    ///
    /// Retries and adapters are not a transport's business: the lifecycle runs every attempt,
    /// so the cache sees each attempt as adapted.
    ///
    /// `target` is read only for the session (the cache asks the target's policies): a stub
    /// does not copy it.
    static func transport(
        stubBehavior: StubBehavior,
        session: Session,
        target: @autoclosure () -> UserValue<TargetType>
    ) -> Transport {
        guard stubBehavior == .never else {
            return StubTransport(behavior: stubBehavior)
        }
        // URLSession keeps the session's cookies itself: no cookie decorator over it.
        if let urlSession = session.urlSessionTransport {
            return CachingTransport.over(session, target: target(), base: urlSession)
        }
        return CookieTransport.over(CachingTransport.over(session, target: target()), session: session)
    }
}
