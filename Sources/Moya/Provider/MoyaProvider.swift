import Foundation

/// Request provider class. Requests should be made through this class only.
///
/// A provider is safe to share across threads and tasks. Completions, progress and the
/// plugins' `didReceive`/`process` run on the callback queue: the one passed to `request`,
/// else the provider's, else the **main queue**. A server or command-line program that does not
/// run the main queue must pass a queue (see the Threading and Concurrency article).
///
/// Every completion is called exactly once. As in Moya 15, when no callback queue is named (on
/// the call or the provider), an immediate stub answers synchronously: plugins, progress and the
/// completion all run inside `request`, so a unit test can read the result on the next line.
///
/// - Note: `@unchecked Sendable` because the class is `open`, which rules out a checked
///   conformance. Its stored properties are immutable; the closures and plugins among them are
///   the user's, which Moya does not require to be `Sendable` (see `UserValue` for how the
///   pipeline carries them), and its only mutable state (the in-flight table) is behind a lock.
///   Subclasses must keep that promise.
open class MoyaProvider<Target: TargetType>: MoyaProviderType, @unchecked Sendable {
    /// Closure that defines the endpoints for the provider.
    public typealias EndpointClosure = (Target) -> Endpoint

    /// Closure that decides if and what request should be performed.
    ///
    /// `@Sendable`, unlike the other closures: the provider makes it, and a `requestClosure` may
    /// call it later from any thread; that costs code written for Moya nothing.
    public typealias RequestResultClosure = @Sendable (Result<URLRequest, MoyaError>) -> Void

    /// Closure that resolves an `Endpoint` into a `RequestResult`. It may call its second
    /// argument later, from any thread (to sign a request, for example).
    public typealias RequestClosure = (Endpoint, @escaping RequestResultClosure) -> Void

    /// Closure that decides if/how a request should be stubbed.
    public typealias StubClosure = (Target) -> Moya.StubBehavior

    /// A closure responsible for mapping a `TargetType` to an `EndPoint`.
    public let endpointClosure: EndpointClosure

    /// A closure deciding if and what request should be performed.
    public let requestClosure: RequestClosure

    /// A closure responsible for determining the stubbing behavior of a request for a given
    /// `TargetType`.
    public let stubClosure: StubClosure

    /// The session requests are sent through.
    public let session: Session

    /// A list of plugins, called in order. e.g. for logging, network activity indicator or
    /// credentials.
    public let plugins: [PluginType]

    /// Whether identical endpoints in flight share one request.
    public let trackInflights: Bool

    /// Adapts and retries this provider's requests, after the session's interceptor adapted them.
    public let interceptor: RequestInterceptor?

    /// The queue completions run on when a call names none.
    let callbackQueue: DispatchQueue?

    /// Whether a plugin is an `AsyncPluginType`: worked out once, not for every request.
    let hasAsyncPlugins: Bool

    /// The plugins that watch each attempt (`AttemptObservingPlugin`): found once.
    let attemptObservers: [any AttemptObservingPlugin]

    /// The session's interceptor, then the provider's: the same for every request.
    let interceptorLayers: [RequestInterceptor]

    /// Whether a target may conform to `RequestPolicies`: a value type's conformance is known
    /// once, so only a class (whose subclasses may conform) needs a cast for every request.
    let targetsMayHavePolicies: Bool

    /// Whether a target may declare an error body (`DecodableErrorTarget`): known once too.
    let targetsMayDecodeErrorBodies: Bool

    let inflightTable = InflightTable()

    let activeRequests = ActiveRequests()

    /// The completions waiting per endpoint, when `trackInflights` is on.
    open var inflightRequests: [Endpoint: [Moya.Completion]] {
        inflightTable.snapshot
    }

    /// Initializes a provider.
    ///
    /// `interceptor` is not Moya's: it adapts every attempt and decides on retries (see
    /// `RetryPolicy` and `AuthenticationInterceptor`), for network requests and stubs alike.
    public init(
        // Closures rather than method references: a method reference would capture the generic
        // metatype, which Swift 6.2 warns about since `Target` need not be `Sendable`.
        endpointClosure: @escaping EndpointClosure = { MoyaProvider.defaultEndpointMapping(for: $0) },
        requestClosure: @escaping RequestClosure = { MoyaProvider.defaultRequestMapping(for: $0, closure: $1) },
        stubClosure: @escaping StubClosure = { MoyaProvider.neverStub($0) },
        callbackQueue: DispatchQueue? = nil,
        session: Session = MoyaProvider<Target>.defaultAlamofireSession(),
        plugins: [PluginType] = [],
        trackInflights: Bool = false,
        interceptor: RequestInterceptor? = nil
    ) {
        self.interceptor = interceptor
        self.endpointClosure = endpointClosure
        self.requestClosure = requestClosure
        self.stubClosure = stubClosure
        self.session = session
        self.plugins = plugins
        self.hasAsyncPlugins = plugins.contains { $0 is AsyncPluginType }
        self.attemptObservers = plugins.compactMap { $0 as? any AttemptObservingPlugin }
        self.interceptorLayers = [session.interceptor, interceptor].compactMap { $0 }
        self.targetsMayHavePolicies = Target.self is RequestPolicies.Type || Target.self is AnyObject.Type
        self.targetsMayDecodeErrorBodies = ErrorBodyDecoding.mayApply(to: Target.self)
        self.trackInflights = trackInflights
        self.callbackQueue = callbackQueue
        if let cache = session.configuration.cache {
            for case let observer as any CacheFailureObserver in plugins {
                cache.failures.addObserver(observer)
            }
        }
        for case let observer as any CircuitStateObserver in plugins {
            if let gate = session.resilience, gate.policies.circuitBreaker != nil {
                gate.addObserver(observer)
            }
            // Targets may set breakers of their own.
            if targetsMayHavePolicies {
                session.targetGates.addObserver(observer)
            }
        }
    }

    /// Cancels the requests still running, as Moya does when a provider is released: each
    /// completes with the cancelled error. Keep a provider alive for as long as its requests.
    deinit {
        activeRequests.cancelAll()
    }

    /// Returns an `Endpoint` based on the token, method, and parameters by invoking the
    /// `endpointClosure`.
    open func endpoint(_ token: Target) -> Endpoint {
        endpointClosure(token)
    }

    /// Designated request-making method. Returns a `Cancellable` token to cancel the request
    /// later.
    @discardableResult
    open func request(
        _ target: Target,
        callbackQueue: DispatchQueue? = .none,
        progress: ProgressBlock? = .none,
        completion: @escaping Completion
    ) -> Cancellable {
        let requested = ResultDelivery.requestedBySurface
        let delivery = ResultDelivery.forCall(
            queue: callbackQueue,
            requestedBySurface: requested,
            providerQueue: self.callbackQueue
        )
        guard requested == nil else {
            // What the surface asked for is this request's alone: a request a plugin makes
            // from inside this one chooses its own.
            return ResultDelivery.$requestedBySurface.withValue(nil) {
                perform(target, delivery: delivery, progress: progress, completion: completion)
            }
        }
        return perform(target, delivery: delivery, progress: progress, completion: completion)
    }
}
