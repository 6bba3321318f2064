import Foundation

extension MoyaProvider {
    /// The default endpoint: the target's URL, method, task and headers, with its
    /// `sampleData` as a `200` sample response.
    public final class func defaultEndpointMapping(for target: Target) -> Endpoint {
        Endpoint(
            url: TargetURL.string(baseURL: target.baseURL, path: target.path),
            sampleResponseClosure: { .networkResponse(200, target.sampleData) },
            method: target.method,
            task: target.task,
            httpHeaderFields: target.headers
        )
    }

    /// The default request mapping: `endpoint.urlRequest()`, its errors reported as they are
    /// (`MoyaError`) or wrapped in `.underlying`.
    public final class func defaultRequestMapping(for endpoint: Endpoint, closure: RequestResultClosure) {
        do {
            let urlRequest = try endpoint.urlRequest()
            closure(.success(urlRequest))
        } catch let error as MoyaError {
            closure(.failure(error))
        } catch {
            closure(.failure(.underlying(error, nil)))
        }
    }

    /// The session used when a provider is given none: `Session.default`, shared by every
    /// provider, so that providers do not each start their own connection pool.
    public final class func defaultAlamofireSession() -> Session {
        .default
    }
}

extension MoyaProvider {
    /// Do not stub.
    public final class func neverStub(_: Target) -> Moya.StubBehavior {
        .never
    }

    /// Return a response immediately.
    public final class func immediatelyStub(_: Target) -> Moya.StubBehavior {
        .immediate
    }

    /// Return a response after a delay.
    public final class func delayedStub(_ seconds: TimeInterval) -> (Target) -> Moya.StubBehavior {
        { (_: Target) in .delayed(seconds: seconds) }
    }
}
