import AsyncHTTPClient
import NIOCore

extension AsyncHTTPClientTransport {
    /// The client configuration for every host, or for one pinned host, through `proxy`: the
    /// session's shared settings (connect timeout, TLS, trust policies) with the transport's own.
    static func makeClientConfiguration(
        _ configuration: Session.Configuration,
        pinnedHost host: String? = nil,
        proxy: HTTPClient.Configuration.Proxy?
    ) -> HTTPClient.Configuration {
        let own = configuration.asyncHTTPClient
        // The transport follows redirects itself (`RedirectHops`), to keep each hop's cookies.
        var client = HTTPClient.Configuration(
            tlsConfiguration: configuration.tlsConfiguration,
            redirectConfiguration: .disallow,
            timeout: .init(connect: TimeAmount(configuration.connectTimeout), read: nil),
            connectionPool: own.connectionPool,
            proxy: proxy,
            decompression: own.decompression
        )
        client.httpVersion = own.httpVersion
        // Requests are traced by `TracingPlugin`, one span per attempt under the request's
        // span. AsyncHTTPClient's own span would start on an event loop, outside the caller's
        // context: an orphan beside them, or with no tracer bootstrapped a no-op span per request.
        client.tracing.tracer = nil
        let trust = Self.trust(configuration, pinnedHost: host)
        client.tlsConfiguration = trust.tlsConfiguration
        client.http1_1ConnectionDebugInitializer = trust.connectionCheck
        client.http2ConnectionDebugInitializer = trust.connectionCheck
        return client
    }

    /// The TLS settings of connections to `host`, pooled or dedicated: the session's, with the
    /// host's trust policy applied when it has one.
    static func trust(
        _ configuration: borrowing Session.Configuration,
        pinnedHost host: String?
    )
        -> HTTPClientConfigurationBox
    {
        var box = HTTPClientConfigurationBox(tlsConfiguration: configuration.tlsConfiguration)
        if let host, let policy = configuration.serverTrustPolicies[host] {
            policy.apply(to: &box, host: host, baseTLS: configuration.tlsConfiguration ?? .makeClientConfiguration())
        }
        return box
    }
}
