import AsyncHTTPClient
import Foundation
import Testing

@testable import Moya

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What each transport reads of a session's configuration: the shared settings, and its own
/// (`asyncHTTPClient`, `urlSession`), also when a configuration still uses the spelling from
/// before the transports' settings moved.
@Suite struct SessionConfigurationTests {
    @Test func eachTransportsOwnSettingsDefaultToThirtyTwoConnectionsPerHost() {
        let configuration = Session.Configuration()
        #expect(configuration.asyncHTTPClient.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit == 32)
        #expect(configuration.asyncHTTPClient.connectionPool.retryConnectionEstablishment == false)
        #expect(configuration.asyncHTTPClient.httpVersion == .automatic)
        #expect(configuration.asyncHTTPClient.proxy == nil)
        #expect(configuration.urlSession.maximumConnectionsPerHost == 32)
    }

    @Test func theURLSessionTransportTakesItsConnectionLimitFromItsOwnSettings() {
        var configuration = Session.Configuration()
        configuration.urlSession.maximumConnectionsPerHost = 5
        configuration.asyncHTTPClient.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 64
        #expect(URLSessionTransport.makeConfiguration(configuration).httpMaximumConnectionsPerHost == 5)
    }

    @Test func aURLSessionConnectionLimitBelowOneIsOne() {
        var configuration = Session.Configuration()
        configuration.urlSession.maximumConnectionsPerHost = 0
        #expect(URLSessionTransport.makeConfiguration(configuration).httpMaximumConnectionsPerHost == 1)
    }

    @Test func theAsyncHTTPClientTransportBuildsItsClientFromItsOwnSettings() {
        var configuration = Session.Configuration(connectTimeout: .seconds(3))
        configuration.asyncHTTPClient.httpVersion = .http1Only
        configuration.asyncHTTPClient.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 7
        configuration.urlSession.maximumConnectionsPerHost = 2
        let client = AsyncHTTPClientTransport.makeClientConfiguration(configuration, proxy: nil)
        #expect(client.httpVersion == .http1Only)
        #expect(client.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit == 7)
        #expect(client.timeout.connect == .seconds(3))
    }

    @Test func aConfigurationSpelledTheOldWayPutsTheTransportsSettingsInTheirNewPlace() {
        let configuration = OldSpelling.configuration(
            proxy: .server(host: "proxy.test", port: 3128),
            connectionsPerHost: 3
        )
        #expect(configuration.asyncHTTPClient.httpVersion == .http1Only)
        #expect(configuration.asyncHTTPClient.proxy == .server(host: "proxy.test", port: 3128))
        #expect(configuration.asyncHTTPClient.proxyEnvironment == nil)
        #expect(configuration.asyncHTTPClient.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit == 3)
        // The URLSession transport read its limit from the pool: it still gets the same.
        #expect(configuration.urlSession.maximumConnectionsPerHost == 3)
        #expect(configuration.cookieStorage == nil)
    }

    @Test func theOldPropertiesReadAndWriteTheTransportsSettings() {
        let configuration = OldSpelling.changedAfterwards()
        #expect(configuration.asyncHTTPClient.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit == 9)
        #expect(configuration.urlSession.maximumConnectionsPerHost == 9)
        #expect(configuration.asyncHTTPClient.httpVersion == .http1Only)
        #expect(configuration.asyncHTTPClient.proxyEnvironment == OldSpelling.companyProxy)
    }
}

/// Builds configurations with the spellings deprecated when the transports' own settings moved.
///
/// The deprecated calls sit in deprecated witnesses of a protocol's requirements, reached only
/// through the protocol: that is how a test can use them without a warning of its own.
private protocol ConfigurationSpelling {
    static func configuration(proxy: HTTPClient.Configuration.Proxy, connectionsPerHost: Int) -> Session.Configuration
    static func changedAfterwards() -> Session.Configuration
}

private enum DeprecatedSpelling: ConfigurationSpelling {
    @available(*, deprecated, message: "spells the configuration as before the transports' settings moved")
    static func configuration(proxy: HTTPClient.Configuration.Proxy, connectionsPerHost: Int) -> Session.Configuration {
        var pool = Session.Configuration.defaultConnectionPool
        pool.concurrentHTTP1ConnectionsPerHostSoftLimit = connectionsPerHost
        return Session.Configuration(
            httpVersion: .http1Only,
            proxy: proxy,
            proxyEnvironment: nil,
            connectionPool: pool,
            cookieStorage: nil
        )
    }

    @available(*, deprecated, message: "spells the configuration as before the transports' settings moved")
    static func changedAfterwards() -> Session.Configuration {
        var configuration = Session.Configuration()
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 9
        configuration.httpVersion = .http1Only
        configuration.proxyEnvironment = OldSpelling.companyProxy
        return configuration
    }
}

private enum OldSpelling {
    /// An environment naming a proxy, unlike the one the tests run in, most likely.
    static let companyProxy = ProxyEnvironment(http: .server(host: "proxy.test", port: 3128))

    /// Typed as the protocol, so that calls reach the requirement, not the deprecated witness.
    private static var spelling: any ConfigurationSpelling.Type { DeprecatedSpelling.self }

    static func configuration(proxy: HTTPClient.Configuration.Proxy, connectionsPerHost: Int) -> Session.Configuration {
        spelling.configuration(proxy: proxy, connectionsPerHost: connectionsPerHost)
    }

    static func changedAfterwards() -> Session.Configuration {
        spelling.changedAfterwards()
    }
}
