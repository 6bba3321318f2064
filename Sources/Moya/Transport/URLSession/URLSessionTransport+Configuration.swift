import Foundation

extension URLSessionTransport {
    /// What only the URLSession transport reads, beside the session's settings every transport
    /// shares (timeouts, headers, redirects, cookies, the cache).
    ///
    /// A session's configuration carries one (`Session.Configuration.urlSession`), which the
    /// transport is built with:
    ///
    /// ```swift
    /// var configuration = Session.Configuration()
    /// configuration.urlSession.maximumConnectionsPerHost = 8
    /// let session = Session(transport: URLSessionTransport(configuration: configuration), configuration: configuration)
    /// ```
    public struct Configuration: Sendable {
        /// How many connections URLSession opens to one host at most
        /// (`httpMaximumConnectionsPerHost`). Default: `Session.Configuration.defaultConnectionsPerHost`.
        public var maximumConnectionsPerHost: Int

        /// Creates the transport's settings.
        public init(maximumConnectionsPerHost: Int = Session.Configuration.defaultConnectionsPerHost) {
            self.maximumConnectionsPerHost = maximumConnectionsPerHost
        }
    }
}
