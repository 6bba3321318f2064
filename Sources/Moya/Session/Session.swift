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

    private let ownsClient: Bool

    /// Creates a session with its own `HTTPClient`, built from `configuration`.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        self.httpClient = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration.makeClientConfiguration())
        self.ownsClient = true
    }

    /// Creates a session over a client you own and shut down yourself.
    ///
    /// Only the session-level settings of `configuration` apply (default headers, per-request
    /// timeouts); the client keeps its own.
    public init(httpClient: HTTPClient, configuration: Configuration = Configuration()) {
        self.configuration = configuration
        self.httpClient = httpClient
        self.ownsClient = false
    }

    deinit {
        if ownsClient {
            // The client keeps itself alive until the shutdown completes.
            httpClient.shutdown { _ in }
        }
    }

    /// Shuts the session's own client down, failing requests still in flight.
    public func shutdown() async throws {
        guard ownsClient else { return }
        try await httpClient.shutdown()
    }

    /// The headers added to every request that does not set them itself.
    public var sessionHeaders: [String: String] {
        configuration.defaultHeaders
    }
}
