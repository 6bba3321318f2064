/// Adapts nothing and never retries: what the lifecycle adapts with when only the session's
/// resilience policies need the adapting step, to admit each attempt.
struct PassThroughInterceptor: RequestInterceptor {}
