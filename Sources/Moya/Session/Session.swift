import AsyncHTTPClient
import Foundation
import NIOCore

/// The HTTP client a `MoyaProvider` sends its requests through: Moya's `session:` parameter.
///
/// A session wraps an AsyncHTTPClient `HTTPClient` and its configuration. `Session.default`
/// needs no set-up and is never shut down; a session you create owns its client and shuts it
/// down when released (or earlier, with `shutdown()`), so it never traps at deinit.
public final class Session: Sendable {
    /// The shared session used when a provider is given none.
    public static let `default` = Session()

    /// The session's configuration.
    public let configuration: Configuration

    /// The client requests go through.
    public let httpClient: HTTPClient

    /// Adapts and retries the requests of every provider using this session.
    public let interceptor: RequestInterceptor?

    private let ownsClient: Bool

    /// One client per pinned host, each enforcing that host's trust policy. Always owned.
    private let pinnedClients: [String: HTTPClient]

    /// Creates a session with its own `HTTPClient`, built from `configuration`.
    public init(configuration: Configuration = Configuration(), interceptor: RequestInterceptor? = nil) {
        self.configuration = configuration
        self.interceptor = interceptor
        self.httpClient = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration.makeClientConfiguration())
        self.ownsClient = true
        self.pinnedClients = Self.makePinnedClients(configuration)
    }

    /// Creates a session over a client you own and shut down yourself.
    ///
    /// Only the session-level settings of `configuration` apply (default headers, per-request
    /// timeouts); the client keeps its own.
    public init(httpClient: HTTPClient, configuration: Configuration = Configuration(), interceptor: RequestInterceptor? = nil) {
        self.configuration = configuration
        self.interceptor = interceptor
        self.httpClient = httpClient
        self.ownsClient = false
        self.pinnedClients = Self.makePinnedClients(configuration)
    }

    private static func makePinnedClients(_ configuration: Configuration) -> [String: HTTPClient] {
        var clients: [String: HTTPClient] = [:]
        for host in configuration.serverTrustPolicies.keys {
            clients[host] = HTTPClient(
                eventLoopGroupProvider: .singleton,
                configuration: configuration.makeClientConfiguration(pinnedHost: host)
            )
        }
        return clients
    }

    /// The client that may talk to `url`'s host.
    func client(for url: URL) -> HTTPClient {
        guard !pinnedClients.isEmpty, let host = url.host?.lowercased() else { return httpClient }
        return pinnedClients[host] ?? httpClient
    }

    deinit {
        // A client keeps itself alive until its shutdown completes.
        if ownsClient {
            httpClient.shutdown { _ in }
        }
        for client in pinnedClients.values {
            client.shutdown { _ in }
        }
    }

    /// Shuts the session's own client down, failing requests still in flight.
    public func shutdown() async throws {
        for client in pinnedClients.values {
            try await client.shutdown()
        }
        if ownsClient {
            try await httpClient.shutdown()
        }
    }

    /// The headers added to every request that does not set them itself.
    public var sessionHeaders: [String: String] {
        configuration.defaultHeaders
    }
}
