import Foundation
import Hummingbird
import LoopbackServer
import NIOSSL
import Testing

@testable import Moya

/// TLS through every transport: an untrusted certificate is refused the same way, and a
/// custom trust root or a pin is honoured, or, where the transport cannot apply it, the request
/// is refused before anything is sent: never sent without it.
@Suite("Transport contract: TLS")
struct TransportContractTLSTests {
    private func addHello(_ router: Router<BasicRequestContext>, hits: Counter) {
        router.get("hello") { _, _ in
            hits.increment()
            return "secure hello"
        }
    }

    private func hello(
        _ transport: TransportUnderTest,
        _ server: TestServer,
        _ configuration: Session.Configuration
    )
        async -> Result<Moya.Response, MoyaError>
    {
        do {
            return .success(
                try await transport.provider(configuration).request(
                    DynamicTarget(baseURL: server.baseURL, path: "/hello")
                )
            )
        } catch {
            return .failure(error)
        }
    }

    private func trusting(_ authority: NIOSSLCertificate) -> TLSConfiguration {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .certificates([authority])
        return tls
    }

    /// Whether the transport can apply custom roots and pins here. URLSession on Linux verifies
    /// against the system's roots only and asks no delegate about a server's trust (checked
    /// against a self-signed server: the challenge delegate is never called); on Apple's
    /// platforms the URLSession transport does not answer the trust challenge with them yet.
    private func appliesCustomTrust(_ transport: TransportUnderTest) -> Bool {
        transport == .asyncHTTPClient
    }

    @Test(arguments: TransportUnderTest.allCases)
    func anUntrustedCertificateIsRefusedAsUntrusted(_ transport: TransportUnderTest) async throws {
        let hits = Counter()
        let certificates = try TestCertificates.makeAuthority()
        let server = try await TestServer.startTLS(identity: try certificates.makeLeaf(dnsNames: ["localhost"])) {
            addHello($0, hits: hits)
        }
        let result = await hello(transport, server, .init(cookieStorage: nil))
        guard case .failure(.underlying(let error, nil)) = result else {
            Issue.record("expected a TLS failure, got \(result)")
            return
        }
        #expect((error as NSError).domain == NSURLErrorDomain)
        #expect((error as NSError).code == NSURLErrorServerCertificateUntrusted, "\(error)")
        #expect(hits.count == 0)
    }

    @Test(arguments: TransportUnderTest.allCases)
    func aCustomTrustRootIsHonouredOrTheRequestIsRefusedUnsent(_ transport: TransportUnderTest) async throws {
        let hits = Counter()
        let certificates = try TestCertificates.makeAuthority()
        let server = try await TestServer.startTLS(identity: try certificates.makeLeaf(dnsNames: ["localhost"])) {
            addHello($0, hits: hits)
        }
        let configuration = Session.Configuration(
            tlsConfiguration: trusting(certificates.authority.certificate),
            cookieStorage: nil
        )
        let result = await hello(transport, server, configuration)
        if appliesCustomTrust(transport) {
            #expect(try result.get().mapString() == "secure hello")
        } else {
            expectRefusedUnsent(result)
            #expect(hits.count == 0)
        }
    }

    @Test(arguments: TransportUnderTest.allCases)
    func aPinnedHostIsHonouredOrTheRequestIsRefusedUnsent(_ transport: TransportUnderTest) async throws {
        let hits = Counter()
        let certificates = try TestCertificates.makeAuthority()
        let server = try await TestServer.startTLS(identity: try certificates.makeLeaf(dnsNames: ["localhost"])) {
            addHello($0, hits: hits)
        }
        let configuration = Session.Configuration(
            serverTrustPolicies: ["localhost": .pinnedCertificates([certificates.authority.certificate])],
            cookieStorage: nil
        )
        let result = await hello(transport, server, configuration)
        if appliesCustomTrust(transport) {
            #expect(try result.get().statusCode == 200)
        } else {
            expectRefusedUnsent(result)
            #expect(hits.count == 0)
        }
    }

    private func expectRefusedUnsent(
        _ result: Result<Moya.Response, MoyaError>,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard case .failure(.underlying(let error, nil)) = result else {
            Issue.record("expected a refusal, got \(result)", sourceLocation: sourceLocation)
            return
        }
        #expect((error as? MoyaClientError)?.code == .unsupportedSetting, "\(error)", sourceLocation: sourceLocation)
    }
}
