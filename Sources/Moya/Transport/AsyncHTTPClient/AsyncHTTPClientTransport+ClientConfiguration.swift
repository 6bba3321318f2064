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
        if let host, let policy = configuration.serverTrustPolicies[host] {
            let baseTLS = configuration.tlsConfiguration ?? .makeClientConfiguration()
            var box = HTTPClientConfigurationBox(tlsConfiguration: configuration.tlsConfiguration)
            policy.apply(to: &box, host: host, baseTLS: baseTLS)
            client.tlsConfiguration = box.tlsConfiguration
            client.http1_1ConnectionDebugInitializer = box.connectionCheck
            client.http2ConnectionDebugInitializer = box.connectionCheck
        }
        return client
    }
}
