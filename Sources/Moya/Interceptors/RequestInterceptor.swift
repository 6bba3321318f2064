import Foundation

/// Changes a request just before each attempt is sent: adds a credential, signs it.
///
/// Alamofire's `RequestAdapter`, made asynchronous: an adapter may `await` (to read a token
/// store, say). Throwing fails the request with the error (wrapped in `MoyaError.underlying`
/// unless it is a `MoyaError`).
public protocol RequestAdapter: Sendable {
    /// Returns the request to send for `target`.
    func adapt(_ request: URLRequest, for target: TargetType) async throws -> URLRequest
}

/// Decides whether a finished attempt is tried again.
///
/// Unlike Alamofire's retrier, which runs only on errors, a retrier sees every outcome,
/// responses included: a `401` or a `503` can be retried whatever the target's
/// `validationType`.
public protocol RequestRetrier: Sendable {
    /// Decides what happens after attempt number `attempt` (1 for the first) of `request`
    /// ended with `result`, before validation.
    func retry(
        _ request: URLRequest,
        for target: TargetType,
        attempt: Int,
        dueTo result: Result<Response, MoyaError>
    ) async -> RetryResult
}

/// Adapts requests and decides on retries: Alamofire's `RequestInterceptor`, asynchronous.
///
/// Set one on a `Session` (for every provider using it) or on a `MoyaProvider`. Both have
/// defaults that change nothing, so an interceptor implements only what it needs.
public protocol RequestInterceptor: RequestAdapter, RequestRetrier {}

extension RequestInterceptor {
    /// Sends the request unchanged.
    public func adapt(_ request: URLRequest, for target: TargetType) async throws -> URLRequest {
        request
    }

    /// Never retries.
    public func retry(
        _ request: URLRequest,
        for target: TargetType,
        attempt: Int,
        dueTo result: Result<Response, MoyaError>
    ) async -> RetryResult {
        .doNotRetry
    }
}

/// What a `RequestRetrier` decided.
public enum RetryResult: Sendable {
    /// Send the request again now.
    case retry
    /// Send the request again after the given number of seconds.
    case retryWithDelay(TimeInterval)
    /// Keep the outcome as it is.
    case doNotRetry
    /// End the request with this error instead of its outcome.
    case doNotRetryWithError(MoyaError)
}
