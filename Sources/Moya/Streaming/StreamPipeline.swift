import Foundation

/// The request pipeline for a streamed response, the same stages as every request's: the
/// `requestClosure`, the target's timeout, plugins' `prepare` (asynchronous ones included),
/// header validation, `willSend`, then each attempt adapted by the interceptor, validated and
/// perhaps retried, until the head of one is handed to the caller. Plugins hear `didReceive`
/// once: when the stream handed over ends, or with the failure that came first.
///
/// - Note: `@unchecked Sendable` because it holds the user's target, plugins and request
///   closure, which Moya does not require to be `Sendable`; they are used by one stage at a
///   time (see `UserValue`).
struct StreamPipeline: @unchecked Sendable {
    let target: TargetType
    let endpoint: Endpoint
    let stubBehavior: StubBehavior
    let plugins: [PluginType]
    let session: Session
    let requestClosure: (Endpoint, @escaping @Sendable (Result<URLRequest, MoyaError>) -> Void) -> Void
    let interceptor: RequestInterceptor?
    /// Headers the stream adds to the request before plugins see it (`Accept`,
    /// `Last-Event-ID`), unless the request sets them.
    let addedHeaders: [String: String]
    /// Identifies this stream to plugins while their hooks run.
    let requestContext = RequestContext()

    /// The largest body kept from a response whose status the target refuses: what the error
    /// carries, so that the server's explanation can be read, without reading an endless body.
    static let refusedBodyLimit = 64 << 10

    /// A new run of the same pipeline, which also adds `headers` to the request.
    func adding(headers: [String: String]) -> StreamPipeline {
        StreamPipeline(
            target: target,
            endpoint: endpoint,
            stubBehavior: stubBehavior,
            plugins: plugins,
            session: session,
            requestClosure: requestClosure,
            interceptor: interceptor,
            addedHeaders: addedHeaders.merging(headers) { _, added in added }
        )
    }

    /// Runs the pipeline up to the head of the stream.
    func run() async throws(MoyaError) -> StreamedResponse {
        let request = try await prepare(try await build())
        if let problem = HeaderValidation.problem(in: request) {
            throw MoyaError.underlying(problem, nil)
        }
        let sent = MoyaRequest(request: request, sessionHeaders: session.sessionHeaders)
        RequestContext.$current.withValue(requestContext) {
            for plugin in plugins {
                plugin.willSend(sent, target: target)
            }
        }
        do {
            return try await send(request)
        } catch {
            didReceive(.failure(error))
            throw error
        }
    }

    /// Tells plugins how the stream ended.
    func didReceive(_ result: Result<Response, MoyaError>) {
        RequestContext.$current.withValue(requestContext) {
            for plugin in plugins {
                plugin.didReceive(result, target: target)
            }
        }
    }

    /// The request the `requestClosure` builds, with the target's timeout and the stream's
    /// headers.
    private func build() async throws(MoyaError) -> URLRequest {
        let closure = UserValue(requestClosure)
        let endpoint = self.endpoint
        let built = await CancellableWait.value {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<URLRequest, MoyaError>, Never>) in
                closure.value(endpoint) { continuation.resume(returning: $0) }
            }
        }
        guard let built else { throw MoyaError.cancelled }
        var request = try built.get()
        if let timeout = (target as? RequestPolicies)?.timeoutInterval,
            request.timeoutInterval == URLRequest.defaultTimeoutInterval
        {
            request.timeoutInterval = timeout
        }
        for (name, value) in addedHeaders where request.value(forHTTPHeaderField: name) == nil {
            request.setValue(value, forHTTPHeaderField: name)
        }
        return request
    }

    /// The request after every plugin's `prepare`, in order.
    private func prepare(_ request: URLRequest) async throws(MoyaError) -> URLRequest {
        let target = self.target
        let plugins = self.plugins
        let prepared = await RequestContext.$current.withValue(requestContext) {
            () async -> Result<URLRequest, MoyaError> in
            var prepared = request
            for plugin in plugins {
                if let plugin = plugin as? AsyncPluginType {
                    do {
                        prepared = try await plugin.prepare(prepared, target: target)
                    } catch {
                        return .failure(MoyaError.wrapping(error))
                    }
                } else {
                    prepared = plugin.prepare(prepared, target: target)
                }
            }
            return .success(prepared)
        }
        return try prepared.get()
    }

    var source: StreamSource {
        stubBehavior == .never ? NetworkStreamSource(session: session) : StubStreamSource(behavior: stubBehavior)
    }
}
