import AsyncHTTPClient
import NIOCore
internal import Tracing

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
        // With no tracer bootstrapped, AsyncHTTPClient would still start a no-op span for
        // every request; it reads the tracer once, here, so leaving it out changes nothing
        // but the work saved.
        if InstrumentationSystem.tracer is NoOpTracer {
            client.tracing.tracer = nil
        }
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
