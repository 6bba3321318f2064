import Foundation

/// Answers a `401` challenge with the credential a plugin attached in `willSend`
/// (`CredentialsPlugin`), as URLSession answers one with a session's credential: a retrier
/// like any other, which the lifecycle puts first.
///
/// One answer per request: when the answered attempt is refused again, its `401` is the
/// outcome. Every attempt after the answer carries it, so that a later retry (of a `503`,
/// say) stays authenticated.
final class ChallengeInterceptor: RequestInterceptor {
    private enum State {
        case unanswered
        case answered(authorization: String)
        case refused
    }

    private let credential: URLCredential
    private let state = InlineLock(State.unanswered)

    init(credential: URLCredential) {
        self.credential = credential
    }

    /// The request's interceptor, with challenges answered when a credential was attached.
    /// The challenge is asked first and adapts last, so that its `Authorization` is the one
    /// sent.
    static func combining(_ interceptor: RequestInterceptor?, credential: URLCredential?) -> RequestInterceptor? {
        guard let credential else { return interceptor }
        let challenge = ChallengeInterceptor(credential: credential)
        guard let interceptor else { return challenge }
        return Interceptor(adapters: [interceptor, challenge], retriers: [challenge, interceptor])
    }

    func adapt(_ request: URLRequest, for target: TargetType) async throws -> URLRequest {
        guard case .answered(let authorization) = state.withLockedValue({ $0 }) else { return request }
        var request = request
        request.setValue(authorization, forHTTPHeaderField: "Authorization")
        return request
    }

    func retry(
        _ request: URLRequest,
        for target: TargetType,
        attempt: Int,
        dueTo result: Result<Response, MoyaError>
    ) async -> RetryResult {
        guard case .success(let response) = result, response.statusCode == 401,
            let authorization = Self.authorization(answering: response, to: request, with: credential)
        else { return .doNotRetry }
        return state.withLockedValue { state in
            guard case .unanswered = state else {
                state = .refused
                return .doNotRetry
            }
            state = .answered(authorization: authorization)
            return .retry
        }
    }

    /// The `Authorization` answering the response's challenges, or `nil` when none is one we
    /// can answer.
    private static func authorization(
        answering response: Response,
        to request: URLRequest,
        with credential: URLCredential
    ) -> String? {
        let challenges = response.values(forHeader: "WWW-Authenticate").joined(separator: ", ")
        guard !challenges.isEmpty, let url = request.url else { return nil }
        var uri = url.path.isEmpty ? "/" : url.path
        if let query = url.query {
            uri += "?" + query
        }
        return AuthenticationChallenge.authorization(
            for: challenges,
            credential: credential,
            method: request.httpMethod ?? "GET",
            uri: uri
        )
    }
}
