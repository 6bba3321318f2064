/// Where a request's transport is put together: the one place that decides which transport
/// answers and which decorators wrap it.
enum TransportAssembly {
    /// The stub for a stubbed request, else the session's transport behind its HTTP cache, when
    /// it has one, behind its cookie storage, when it has one.
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
    ) -> any StreamTransport {
        guard stubBehavior == .never else {
            return StubTransport(behavior: stubBehavior)
        }
        let cached = CachingTransport.over(session.streamTransport, session: session, target: target())
        // URLSession keeps the session's cookies itself: no cookie decorator over it.
        guard !session.transportKeepsCookies else { return cached }
        return CookieTransport.over(cached, session: session)
    }
}
