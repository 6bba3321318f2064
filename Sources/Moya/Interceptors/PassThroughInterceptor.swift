/// Adapts nothing and never retries: what the lifecycle adapts with when only the session's
/// resilience policies need the adapting step, to admit each attempt.
struct PassThroughInterceptor: RequestInterceptor {
    /// Whether `interceptor` is one: compares the dynamic type, which costs less than the
    /// conformance search an `is` cast makes.
    static func isIt(_ interceptor: any RequestInterceptor) -> Bool {
        ObjectIdentifier(type(of: interceptor)) == ObjectIdentifier(PassThroughInterceptor.self)
    }
}
