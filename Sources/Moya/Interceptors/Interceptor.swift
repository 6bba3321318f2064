import Foundation

/// Combines adapters and retriers: adapters run in order, each on the previous one's result;
/// retriers are asked in order until one decides something other than `.doNotRetry`.
public struct Interceptor: RequestInterceptor {
    /// The adapters, in the order they run.
    public let adapters: [RequestAdapter]
    /// The retriers, in the order they are asked.
    public let retriers: [RequestRetrier]

    /// Creates an interceptor from separate adapters and retriers.
    public init(adapters: [RequestAdapter] = [], retriers: [RequestRetrier] = []) {
        self.adapters = adapters
        self.retriers = retriers
    }

    /// Creates an interceptor that runs each interceptor's adapter and retrier in turn.
    public init(interceptors: [RequestInterceptor]) {
        self.adapters = interceptors
        self.retriers = interceptors
    }

    public func adapt(_ request: URLRequest, for target: TargetType) async throws -> URLRequest {
        var adapted = request
        for adapter in adapters {
            adapted = try await adapter.adapt(adapted, for: target)
        }
        return adapted
    }

    public func retry(
        _ request: URLRequest,
        for target: TargetType,
        attempt: Int,
        dueTo result: Result<Response, MoyaError>
    ) async -> RetryResult {
        for retrier in retriers {
            let decision = await retrier.retry(request, for: target, attempt: attempt, dueTo: result)
            if case .doNotRetry = decision {
                continue
            }
            return decision
        }
        return .doNotRetry
    }
}
