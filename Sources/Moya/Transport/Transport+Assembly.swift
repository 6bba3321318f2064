/// Where a request's transport is put together: the one place that decides which transport
/// answers and which decorators wrap it.
enum TransportAssembly {
    /// The stub for a stubbed request, else the session (AsyncHTTPClient).
    ///
    /// Retries and adapters are not a transport's business: the lifecycle runs every attempt.
    static func transport(stubBehavior: StubBehavior, session: Session) -> Transport {
        stubBehavior == .never ? session : StubTransport(behavior: stubBehavior)
    }
}
