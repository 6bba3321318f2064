import Foundation

/// Authenticates requests with a credential and refreshes it when it expires: the token
/// refresh Moya users ask for most.
///
/// - Each attempt gets the current credential (`Authenticator.apply`); one that
///   `requiresRefresh` is refreshed first.
/// - A response the authenticator calls an authentication failure (a `401` by default) starts
///   one refresh, shared by every request that fails meanwhile (single flight); all of them
///   are then replayed with the new credential.
/// - A request sent with a credential older than the current one is replayed at once, without
///   another refresh.
/// - A failed refresh fails every waiting request with `AuthenticationError.refreshFailed`.
///
/// ```swift
/// // `OAuthAuthenticator` is yours: the Authentication article shows one.
/// let auth = AuthenticationInterceptor(authenticator: OAuthAuthenticator(authProvider: authProvider), credential: stored)
/// let provider = MoyaProvider<API>(interceptor: auth)
/// ```
public final class AuthenticationInterceptor<A: Authenticator>: RequestInterceptor {
    /// How many refreshes may happen within a period before refreshing is treated as failing.
    public struct RefreshWindow: Sendable {
        /// The period, in seconds.
        public var interval: TimeInterval
        /// The refreshes allowed within it.
        public var maximumAttempts: Int

        /// Creates a window. Default: 5 refreshes in 30 seconds.
        public init(interval: TimeInterval = 30, maximumAttempts: Int = 5) {
            self.interval = interval
            self.maximumAttempts = maximumAttempts
        }
    }

    /// The authenticator that applies and refreshes credentials.
    public let authenticator: A
    private let store: CredentialStore<A>

    /// Creates an interceptor; `credential` may be set later with `setCredential(_:)`.
    public init(authenticator: A, credential: A.Credential? = nil, refreshWindow: RefreshWindow = RefreshWindow()) {
        self.authenticator = authenticator
        self.store = CredentialStore(authenticator: authenticator, credential: credential, refreshWindow: refreshWindow)
    }

    /// The current credential.
    public var credential: A.Credential? {
        get async { await store.credential }
    }

    /// Replaces the credential (after a sign-in, for example).
    public func setCredential(_ credential: A.Credential?) async {
        await store.replace(with: credential)
    }

    public func adapt(_ request: URLRequest, for target: TargetType) async throws -> URLRequest {
        let credential = try await store.usableCredential()
        var request = request
        authenticator.apply(credential, to: &request)
        return request
    }

    public func retry(
        _ request: URLRequest,
        for target: TargetType,
        attempt: Int,
        dueTo result: Result<Response, MoyaError>
    ) async -> RetryResult {
        guard case .success(let response) = result, authenticator.didRequest(request, with: response) else {
            return .doNotRetry
        }
        do {
            try await store.refresh(afterRejecting: request)
            return .retry
        } catch {
            return .doNotRetryWithError(.underlying(error, response))
        }
    }
}

/// The credential and the refresh in progress, if any. An actor, so that concurrent failures
/// see one refresh.
actor CredentialStore<A: Authenticator> {
    private let authenticator: A
    private let refreshWindow: AuthenticationInterceptor<A>.RefreshWindow
    private(set) var credential: A.Credential?
    private var refreshing: _Concurrency.Task<A.Credential, Error>?
    private var refreshDates: [Date] = []

    init(authenticator: A, credential: A.Credential?, refreshWindow: AuthenticationInterceptor<A>.RefreshWindow) {
        self.authenticator = authenticator
        self.credential = credential
        self.refreshWindow = refreshWindow
    }

    func replace(with credential: A.Credential?) {
        self.credential = credential
    }

    /// The credential to apply now: the current one, refreshed first when it must be.
    func usableCredential() async throws -> A.Credential {
        if let refreshing {
            return try await refreshing.value
        }
        guard let credential else {
            throw AuthenticationError.missingCredential
        }
        guard credential.requiresRefresh else {
            return credential
        }
        return try await refresh(from: credential)
    }

    /// Makes sure a credential newer than the one `request` was sent with exists: joins the
    /// refresh already running, does nothing when a refresh has already replaced that
    /// credential, and otherwise refreshes the current one.
    ///
    /// One actor call, with no suspension between reading the credential and starting the
    /// refresh: had another refresh finished in between, a second one would start from a stale
    /// credential, and with rotating refresh tokens every waiting request would fail.
    func refresh(afterRejecting request: URLRequest) async throws {
        if let refreshing {
            _ = try await refreshing.value
            return
        }
        guard let credential else {
            throw AuthenticationError.missingCredential
        }
        guard authenticator.isRequest(request, authenticatedWith: credential) else {
            // Sent with an older credential: a refresh already happened.
            return
        }
        _ = try await refresh(from: credential)
    }

    /// Refreshes `stale`, or joins the refresh already running.
    func refresh(from stale: A.Credential) async throws -> A.Credential {
        if let refreshing {
            return try await refreshing.value
        }
        let now = Date()
        refreshDates = refreshDates.filter { now.timeIntervalSince($0) < refreshWindow.interval }
        guard refreshDates.count < refreshWindow.maximumAttempts else {
            throw AuthenticationError.excessiveRefresh
        }
        refreshDates.append(now)

        let authenticator = self.authenticator
        // Isolated to this actor: the refresh itself runs elsewhere, the bookkeeping here.
        let task = _Concurrency.Task<A.Credential, Error> {
            do {
                let fresh = try await authenticator.refresh(stale)
                // Stored before anyone waiting on this task resumes, so their next attempt
                // applies the new credential.
                self.finishRefresh(with: fresh)
                return fresh
            } catch {
                self.finishRefresh(with: nil)
                throw AuthenticationError.refreshFailed(error)
            }
        }
        refreshing = task
        return try await task.value
    }

    private func finishRefresh(with fresh: A.Credential?) {
        if let fresh {
            credential = fresh
        }
        refreshing = nil
    }
}
