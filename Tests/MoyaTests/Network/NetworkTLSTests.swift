import Foundation
import Hummingbird
import LoopbackServer
import Moya
import NIOSSL
import Testing

@Suite("TLS: verification, trust roots, pinning, client certificates")
struct NetworkTLSTests {
    /// Sends `/hello` through a session with `configuration` and returns the outcome.
    private func hello(
        _ server: TestServer,
        _ configuration: Session.Configuration
    ) async -> Result<Moya.Response, MoyaError> {
        let session = Session(configuration: configuration)
        let provider = MoyaProvider<DynamicTarget>(session: session)
        do {
            return .success(try await provider.request(DynamicTarget(baseURL: server.baseURL, path: "/hello")))
        } catch {
            return .failure(error)
        }
    }

    private func expectTLSFailure(
        _ result: Result<Moya.Response, MoyaError>,
        code: Int = NSURLErrorServerCertificateUntrusted,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard case .failure(.underlying(let error, nil)) = result else {
            Issue.record("expected a TLS failure, got \(result)", sourceLocation: sourceLocation)
            return
        }
        #expect((error as NSError).domain == NSURLErrorDomain, sourceLocation: sourceLocation)
        #expect((error as NSError).code == code, "\(error)", sourceLocation: sourceLocation)
    }

    @Test func untrustedCertificateIsRefusedByDefault() async throws {
        let certificates = try TestCertificates.makeAuthority()
        let leaf = try certificates.makeLeaf(dnsNames: ["localhost"])
        let server = try await TestServer.startTLS(identity: leaf, TestServer.addHello)
        expectTLSFailure(await hello(server, .init()))
    }

    @Test func customTrustRootIsAccepted() async throws {
        let certificates = try TestCertificates.makeAuthority()
        let leaf = try certificates.makeLeaf(dnsNames: ["localhost"])
        let server = try await TestServer.startTLS(identity: leaf, TestServer.addHello)
        let result = await hello(server, .init(tlsConfiguration: .trusting(certificates.authority.certificate)))
        #expect(try result.get().mapString() == "secure hello")
    }

    @Test func certificateForAnotherHostIsRefused() async throws {
        let certificates = try TestCertificates.makeAuthority()
        let leaf = try certificates.makeLeaf(dnsNames: ["other.example"])
        let server = try await TestServer.startTLS(identity: leaf, TestServer.addHello)
        expectTLSFailure(await hello(server, .init(tlsConfiguration: .trusting(certificates.authority.certificate))))
    }

    @Test func pinnedCertificateAuthorityIsTheOnlyOneTrusted() async throws {
        let certificates = try TestCertificates.makeAuthority()
        let leaf = try certificates.makeLeaf(dnsNames: ["localhost"])
        let server = try await TestServer.startTLS(identity: leaf, TestServer.addHello)

        let pinned = await hello(
            server,
            .init(serverTrustPolicies: ["localhost": .pinnedCertificates([certificates.authority.certificate])])
        )
        #expect(try pinned.get().statusCode == 200)

        let otherAuthority = try TestCertificates.makeAuthority(name: "Another CA")
        let mismatch = await hello(
            server,
            .init(
                tlsConfiguration: .trusting(certificates.authority.certificate),
                serverTrustPolicies: ["localhost": .pinnedCertificates([otherAuthority.authority.certificate])]
            )
        )
        expectTLSFailure(mismatch)
    }

    @Test func pinnedPublicKeyMatchesAndAMismatchIsRefused() async throws {
        let certificates = try TestCertificates.makeAuthority()
        let leaf = try certificates.makeLeaf(dnsNames: ["localhost"])
        let server = try await TestServer.startTLS(identity: leaf, TestServer.addHello)
        let tls = TLSConfiguration.trusting(certificates.authority.certificate)

        let pinned = await hello(
            server,
            .init(
                tlsConfiguration: tls,
                serverTrustPolicies: ["localhost": try .pinnedPublicKeys(of: [leaf.certificate])]
            )
        )
        #expect(try pinned.get().statusCode == 200)

        let otherLeaf = try certificates.makeLeaf(dnsNames: ["localhost"])
        let mismatch = await hello(
            server,
            .init(
                tlsConfiguration: tls,
                serverTrustPolicies: ["LOCALHOST": try .pinnedPublicKeys(of: [otherLeaf.certificate])]
            )
        )
        guard case .failure(.underlying(let error, nil)) = mismatch else {
            Issue.record("expected a pin mismatch, got \(mismatch)")
            return
        }
        #expect((error as? MoyaClientError)?.code == .serverTrust)
        #expect((error as? MoyaClientError)?.name == "localhost")
    }

    @Test func clientCertificateIsPresentedWhenConfigured() async throws {
        let certificates = try TestCertificates.makeAuthority()
        let leaf = try certificates.makeLeaf(dnsNames: ["localhost"])
        let client = try certificates.makeLeaf(dnsNames: ["client"], clientAuth: true)
        let server = try await TestServer.startTLS(
            identity: leaf,
            clientCA: certificates.authority.certificate,
            TestServer.addHello
        )

        expectTLSFailure(
            await hello(server, .init(tlsConfiguration: .trusting(certificates.authority.certificate))),
            code: NSURLErrorClientCertificateRequired
        )

        var tls = TLSConfiguration.trusting(certificates.authority.certificate)
        tls.certificateChain = [.certificate(client.certificate)]
        tls.privateKey = .privateKey(client.privateKey)
        let result = await hello(server, .init(tlsConfiguration: tls))
        #expect(try result.get().mapString() == "secure hello")
    }
}
